#!/bin/sh
# determinism_layout.sh - results and limits do not depend on where things
# are in memory: every bundled model (xml/**) and every test model
# (tests/cli/models, tests/cli/fit) through derive, check and latex, and
# the larger ones once more with a small max_work so that the budget runs
# out part of the way, each run three times: with the address layout the
# system picks, with the randomisation of addresses turned off (setarch
# -R) and malloc filling fresh memory with one byte, and with another
# byte and an environment 64 KiB larger (the stack and everything the
# loader places after it moves).  Standard output, standard error and the
# exit status must be the same bytes.  DETERMINISM_SHARD=K/N runs the
# K-th of N interleaved shares of the models.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

# setarch -R, where the system lets it run.
norandom=
if setarch "$(uname -m)" -R true 2>/dev/null; then
	norandom="setarch $(uname -m) -R"
else
	diag "setarch -R does not run here: the layout varies by the other runs only"
fi
pad=$(head -c 65536 /dev/zero | tr '\0' x)

# run RUN CMD ARGS...: runs segc in the setting of RUN (a, b, c); leaves
# its outputs in $tmp/RUN.out, .err and .rc.
run() {
	r=$1
	shift
	case $r in
	a) "$SEGC" "$@" ;;
	b) MALLOC_PERTURB_=165 $norandom "$SEGC" "$@" ;;
	c) SEGC_TEST_PAD=$pad MALLOC_PERTURB_=90 "$SEGC" "$@" ;;
	esac >"$tmp/$r.out" 2>"$tmp/$r.err"
	echo $? >"$tmp/$r.rc"
}

# same RUN1 RUN2: the two runs gave the same bytes.
same() {
	cmp -s "$tmp/$1.out" "$tmp/$2.out" &&
	cmp -s "$tmp/$1.err" "$tmp/$2.err" &&
	cmp -s "$tmp/$1.rc" "$tmp/$2.rc"
}

# check NAME ARGS...: one command, three runs.
check() {
	name=$1
	shift
	run a "$@"
	run b "$@"
	run c "$@"
	if same a b && same a c; then
		ok 0 "$name"
	else
		ok 1 "$name"
		for r in b c; do
			same a $r && continue
			diag "run $r differs:"
			diag "$(diff "$tmp/a.out" "$tmp/$r.out" | head -10)"
			diag "$(diff "$tmp/a.err" "$tmp/$r.err" | head -10)"
			diag "exit $(cat "$tmp/a.rc") and $(cat "$tmp/$r.rc")"
		done
	fi
}

shard=${DETERMINISM_SHARD:-1/1}
shard_k=${shard%/*}
shard_n=${shard#*/}
case $shard_k/$shard_n in
*[!0-9/]* | /* | */ | 0/* | */0 | */*/*) shard_k=0 ;;
esac
if [ "$shard_k" -eq 0 ] || [ "$shard_k" -gt "$shard_n" ]; then
	echo "Bail out! DETERMINISM_SHARD='$shard' is not K/N with 1 <= K <= N"
	exit 1
fi
shard_i=0
# mine: counts a model; true when it belongs to this shard.
mine() {
	shard_i=$((shard_i + 1))
	[ $(((shard_i - 1) % shard_n + 1)) -eq "$shard_k" ]
}

for model in "$top_srcdir"/xml/*.xml "$top_srcdir"/xml/examples/*.xml \
	"$top_srcdir"/tests/cli/models/*.xml "$top_srcdir"/tests/cli/fit/*.xml
do
	mine || continue
	short=${model#"$top_srcdir"/}
	check "$short: derive" derive "$model"
	check "$short: check" check "$model"
	check "$short: latex" latex "$model"
	# the budget of polynomial arithmetic running out part of the way
	# (or not at all): the same point of the same formula either way
	size=$(wc -c <"$model")
	[ "$size" -gt 6000 ] || continue
	check "$short: derive, small max_work" \
		derive --limit max_work=3000000 "$model"
done
done_testing
