#!/bin/sh
# derive_json.sh - 'segc derive --json': for every bundled model a valid
# document whose "total" is what 'derive' prints; the free names and
# domains of one model; the conditions of if(); model text with quotes,
# backslashes, newlines and control characters escaped; the same bytes on
# every run; the options it refuses.
. "$top_srcdir/tests/cli/lib.sh"

have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes

# The value of string key $2 of the top object of document $1, as text.
json_get() {
	python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))[sys.argv[2]]
sys.stdout.write(v if isinstance(v, str) else json.dumps(v))' "$1" "$2"
}

bad_parse=
bad_total=
for m in "$top_srcdir"/xml/*.xml; do
	n=${m##*/}
	"$SEGC" derive --json "$m" >"$tmp/$n.json" 2>&1 ||
		bad_parse="$bad_parse $n(exit)"
	"$SEGC" derive "$m" >"$tmp/$n.txt" 2>&1
	# Without python3 the total is found by its line.
	if [ $have_python = yes ]; then
		python3 -m json.tool "$tmp/$n.json" >/dev/null 2>&1 ||
			bad_parse="$bad_parse $n"
		total=$(json_get "$tmp/$n.json" total)
	else
		total=$(sed -n 's/^  "total": "\(.*\)",$/\1/p' "$tmp/$n.json")
	fi
	[ "$total" = "$(cat "$tmp/$n.txt")" ] || bad_total="$bad_total $n"
done
if [ $have_python = yes ]; then
	[ -z "$bad_parse" ]
	ok $? "every bundled model gives valid JSON (failed:$bad_parse)"
else
	skip "every bundled model gives valid JSON" "no python3"
fi
[ -z "$bad_total" ]
ok $? "\"total\" is what derive prints, for every model (failed:$bad_total)"

# The structural form, honoured.
"$SEGC" derive --json --form structural "$top_srcdir/xml/cg_tree.xml" \
	>"$tmp/s.json"
want=$("$SEGC" derive --form structural --component comp \
	"$top_srcdir/xml/cg_tree.xml")
grep -qF "  \"comp\": \"$want\"," "$tmp/s.json" &&
	grep -q '^  "form": "structural",$' "$tmp/s.json"
ok $? "--form structural gives the structural components"

# The names and domains of one model, written out.
cat >"$tmp/want_names" <<'EOW'
  "names": [
    {
      "name": "B",
      "kind": "param",
      "min": "1",
      "max": null,
      "integer": true
    },
    {
      "name": "X",
      "kind": "param",
      "min": "1",
      "max": null,
      "integer": true
    },
    {
      "name": "Y",
      "kind": "param",
      "min": "1",
      "max": null,
      "integer": true
    },
    {
      "name": "beta",
      "kind": "param",
      "min": "0",
      "max": "1",
      "integer": false
    },
    {
      "name": "eta_at",
      "kind": "resource",
      "min": "0",
      "max": null,
      "integer": false
    },
    {
      "name": "i",
      "kind": "param",
      "min": "1",
      "max": null,
      "integer": true
    },
    {
      "name": "tau_gap",
      "kind": "resource",
      "min": "0",
      "max": null,
      "integer": false
    },
    {
      "name": "tau_ts",
      "kind": "resource",
      "min": "0",
      "max": null,
      "integer": false
    }
  ],
EOW
sed -n '/^  "names"/,/^  \],$/p' "$tmp/lu_send_row.xml.json" >"$tmp/names"
same_file "$tmp/want_names" "$tmp/names" "lu_send_row: free names and domains"

# Exact bounds, implicit N, a name without a declared domain, conditions.
cat >"$tmp/cond.xml" <<'EOX'
<?xml version="1.0" encoding="UTF-8"?>
<model name="cond" version="1">
  <param name="a" min="1/3" max="7/2"/>
  <resource name="t"/>
  <machine name="m" version="1">
    <const name="c" value="2"/>
  </machine>
  <graph name="main">
    <step name="s" cost="if(a &lt;= 1, N*t, t) + if(N &gt;= 4, a, 0)"/>
    <step name="u" cost="if(a &lt;= 1, t, 2*t)"/>
  </graph>
</model>
EOX
"$SEGC" derive --json "$tmp/cond.xml" >"$tmp/cond.json" 2>&1
grep -q '"min": "1/3",' "$tmp/cond.json" &&
	grep -q '"max": "7/2",' "$tmp/cond.json"
ok $? "bounds are exact numbers as strings"
sed -n '/^  "conditions"/,/^  \]$/p' "$tmp/cond.json" >"$tmp/conds"
printf '%s\n' '  "conditions": [' '    "a > 1",' '    "N >= 4"' '  ]' \
	>"$tmp/want_conds"
same_file "$tmp/want_conds" "$tmp/conds" "the distinct conditions of if(), canonical"

# Model text that would break a naive writer: quotes, backslashes,
# newlines, a tab (a control character the document may hold).
printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
	'<model name="q" version="1">' \
	'  <description>say "hi" \ back\\slash&#10;new line&#9;tab &#13;cr</description>' \
	'  <resource name="t"/>' \
	'  <graph name="main"><step name="s" cost="t"/></graph>' \
	'</model>' >"$tmp/hostile.xml"
"$SEGC" derive --json "$tmp/hostile.xml" >"$tmp/hostile.json" 2>&1
grep -qF '"description": "say \"hi\" \\ back\\\\slash\u000anew line\u0009tab \u000dcr",' \
	"$tmp/hostile.json"
ok $? "quotes, backslashes and control characters escaped"
if [ $have_python = yes ]; then
	[ "$(json_get "$tmp/hostile.json" description)" = "$(printf 'say "hi" \\ back\\\\slash\nnew line\ttab \rcr')" ]
	ok $? "the escaped description reads back as written"
else
	skip "the escaped description reads back as written" "no python3"
fi

# The same bytes on every run.
"$SEGC" derive --json "$tmp/cond.xml" >"$tmp/cond2.json" 2>&1
cmp -s "$tmp/cond.json" "$tmp/cond2.json"
ok $? "byte-identical across two runs"

# What --json refuses.
"$SEGC" derive --json --component comp "$top_srcdir/xml/pmm.xml" \
	>/dev/null 2>&1
[ $? -eq 2 ]
ok $? "--json with --component is a usage error"
"$SEGC" derive --json --asymptotic N "$top_srcdir/xml/pmm.xml" \
	>/dev/null 2>&1
[ $? -eq 2 ]
ok $? "--json with --asymptotic is a usage error"

done_testing
