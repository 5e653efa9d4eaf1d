#!/bin/sh
# regenerate.sh SEGC TOP_SRCDIR OUTDIR - writes into OUTDIR every output
# listed in TOP_SRCDIR/generated/MANIFEST (see there), using the segc
# binary SEGC.  Run by 'make generated' (OUTDIR = generated/) and by the
# test that checks generated/ is up to date (OUTDIR = a temporary one).
set -eu
segc=$1
top=$2
out=$3
mkdir -p "$out"
tab=$(printf '\t')
status=0
while IFS=$tab read -r name model machine binds keep outputs; do
	case $name in ''|'#'*) continue ;; esac
	set --
	[ "$machine" = - ] || set -- "$@" -m "$top/xml/machines/$machine"
	if [ "$binds" != - ]; then
		old=$IFS; IFS=,
		for b in $binds; do set -- "$@" -D "$b"; done
		IFS=$old
	fi
	if ! "$segc" latex --standalone "$@" "$top/xml/$model" \
	    > "$out/$name.tex.tmp"; then
		echo "regenerate.sh: $name: segc latex failed" >&2
		rm -f "$out/$name.tex.tmp"
		status=1
		continue
	fi
	mv "$out/$name.tex.tmp" "$out/$name.tex"
	case $outputs in *c*) ;; *) continue ;; esac
	if [ "$keep" != - ]; then
		old=$IFS; IFS=,
		for k in $keep; do set -- "$@" --keep "$k"; done
		IFS=$old
	fi
	if ! "$segc" emit -q "$@" -o "$out/$name" "$top/xml/$model"; then
		echo "regenerate.sh: $name: segc emit failed" >&2
		status=1
	fi
	# the lock file of the pair (doc/emit.md): nobody else writes here
	rm -f "$out/$name.lock"
done < "$top/generated/MANIFEST"
exit $status
