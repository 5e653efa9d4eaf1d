#!/bin/sh
# determinism.sh - every command on every bundled model (and with each
# machine its expectations name) gives the same bytes: run twice, and once
# more under another locale, time zone, home directory and working
# directory.  Compares standard output, standard error, the exit status
# and the files 'emit' writes.  A command that is not built yet is
# skipped.  DETERMINISM_SHARD=K/N runs only the K-th of N interleaved
# shares of the models, so that slow runs (under valgrind) can be spread
# over several processes; the default is all of them.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

# The other locale: German (decimal comma), installed or compiled here
# from the system's locale sources; else C.UTF-8.
mkdir -p "$tmp/locale"
if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
	other_locale=de_DE.UTF-8
elif [ -f /usr/share/i18n/locales/de_DE ] &&
	localedef -i de_DE -f UTF-8 "$tmp/locale/de_DE.UTF-8" >/dev/null 2>&1
then
	other_locale=de_DE.UTF-8
	LOCPATH=$tmp/locale
	export LOCPATH
else
	other_locale=C.UTF-8
fi
diag "other environment: LC_ALL=$other_locale TZ=Asia/Kolkata"

mkdir -p "$tmp/h1" "$tmp/h2"

# run RUN CMD ARGS...: runs segc in the setting of RUN (a, b: the first
# environment twice; c: the other one) in a directory of its own; leaves
# its outputs in $tmp/RUN.out, .err, .rc and its files in $tmp/RUN.dir.
run() {
	r=$1
	shift
	rm -rf "$tmp/$r.dir"
	mkdir "$tmp/$r.dir"
	if [ "$r" = c ]; then
		(cd "$tmp/$r.dir" && LC_ALL=$other_locale LANG=$other_locale \
			TZ=Asia/Kolkata HOME=$tmp/h2 "$SEGC" "$@") \
			>"$tmp/$r.out" 2>"$tmp/$r.err"
	else
		(cd "$tmp/$r.dir" && LC_ALL=C TZ=UTC HOME=$tmp/h1 \
			"$SEGC" "$@") >"$tmp/$r.out" 2>"$tmp/$r.err"
	fi
	echo $? >"$tmp/$r.rc"
}

# same RUN1 RUN2: the two runs gave the same bytes everywhere.
same() {
	cmp -s "$tmp/$1.out" "$tmp/$2.out" &&
	cmp -s "$tmp/$1.err" "$tmp/$2.err" &&
	cmp -s "$tmp/$1.rc" "$tmp/$2.rc" &&
	diff -r "$tmp/$1.dir" "$tmp/$2.dir" >/dev/null 2>&1
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
# mine: counts a model; true when it belongs to this shard.
shard_i=0
mine() {
	shard_i=$((shard_i + 1))
	[ $(((shard_i - 1) % shard_n + 1)) -eq "$shard_k" ]
}

skipped=
# check NAME ARGS...: one command, three runs.
check() {
	name=$1
	shift
	run a "$@"
	if grep -q 'not built yet' "$tmp/a.err"; then
		case " $skipped " in
		*" $1 "*) ;;
		*) skipped="$skipped $1"; skip "$1" "not built yet" ;;
		esac
		return
	fi
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
			diag "$(diff -r "$tmp/a.dir" "$tmp/$r.dir" | head -10)"
		done
	fi
}

# machines MODEL: the machines the expectations of MODEL name (absolute).
machines() {
	dir=$(dirname "$1")
	sed -n 's/.*<expect[^>]* machine="\([^"]*\)".*/\1/p' "$1" | sort -u |
	while IFS= read -r m; do
		echo "$dir/$m"
	done
}

for model in "$top_srcdir"/xml/*.xml "$top_srcdir"/xml/examples/*.xml; do
	case $model in */seg.rng) continue ;; esac
	mine || continue
	short=${model#"$top_srcdir"/}
	for m in "" $(machines "$model"); do
		if [ -n "$m" ]; then
			mopt="-m $m"
			label="$short -m ${m##*/}"
		else
			mopt=
			label=$short
		fi
		for form in canonical structural; do
			for comp in total comp comm io; do
				check "$label: derive --form $form --component $comp" \
					derive $mopt --form $form --component $comp "$model"
			done
		done
		check "$label: latex" latex $mopt "$model"
		check "$label: latex --standalone" latex $mopt --standalone "$model"
		check "$label: emit" emit $mopt -o pred "$model"
		check "$label: emit --main" emit $mopt --main -o pred "$model"
		check "$label: eval" eval $mopt "$model" N=1..4 P=1,2,8
		check "$label: check" check $mopt "$model"
		[ -n "$m" ] && continue
		check "$label: validate" validate "$model"
		check "$label: dot" dot "$model"
	done
done
for m in "$top_srcdir"/xml/machines/*.xml; do
	mine || continue
	check "${m#"$top_srcdir"/}: validate" validate "$m"
done
done_testing
