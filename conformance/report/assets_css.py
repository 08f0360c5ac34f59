"""Inline stylesheet of the HTML report (kept in a module so the report stays one self-contained file)."""

CSS = """
:root{--pass:#1a7f37;--fail:#cf222e;--error:#bc4c00;--crash:#82071e;--timeout:#9a6700;--unsupported:#8c959f;
--xfail:#0969da;--xpass:#bf3989;--erratum:#1b7c83;--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
color:var(--ink);background:var(--bg)}
header{background:#24292f;color:#fff;padding:18px 28px 14px}
header h1{margin:0 0 2px;font-size:22px;font-weight:600}
header .meta{color:#c9d1d9;font-size:13px}
header .totals{display:flex;flex-wrap:wrap;gap:8px;margin-top:12px}
.big{background:#32383f;border-radius:8px;padding:6px 12px;min-width:88px}
.big b{display:block;font-size:20px;line-height:1.2}.big span{font-size:12px;color:#c9d1d9}
.big.bad b{color:#ff8182}.big.good b{color:#7ee787}
nav{position:sticky;top:0;z-index:5;background:#fff;border-bottom:1px solid var(--line);padding:8px 28px;
display:flex;gap:18px;font-size:13px}
nav a{color:#0969da;text-decoration:none}nav a:hover{text-decoration:underline}
main{padding:6px 28px 40px}
section{background:#fff;border:1px solid var(--line);border-radius:10px;margin:16px 0;padding:14px 18px}
h2{font-size:17px;margin:0 0 10px;font-weight:600}h2 small{color:var(--muted);font-weight:400;font-size:13px}
table{border-collapse:collapse}
.grid{overflow:auto;max-height:80vh}
table.matrix th,table.matrix td{border:1px solid var(--line);padding:5px 8px;vertical-align:top}
table.matrix thead th{position:sticky;top:0;background:#eef1f4;z-index:2;font-weight:600;text-align:center}
table.matrix th.row{position:sticky;left:0;background:#fff;text-align:left;font-weight:500;white-space:nowrap;
z-index:1}
table.matrix th.row a{color:var(--ink);text-decoration:none}table.matrix th.row a:hover{color:#0969da}
table.matrix th.row .dom{color:var(--muted);font-weight:400}
table.matrix tfoot td,table.matrix tfoot th{background:#eef1f4;font-weight:600}
td.cell{min-width:150px}td.cell.none{background:#fafbfc;color:var(--unsupported);text-align:center}
td.cell.all{background:#f3fbf5}td.cell.bad{background:#fff6f6}
td.cell summary{cursor:pointer;list-style:none}td.cell summary::-webkit-details-marker{display:none}
.frac{font-weight:600;font-variant-numeric:tabular-nums}.rate{float:right;color:var(--muted);font-size:12px}
.bar{display:flex;height:6px;border-radius:3px;overflow:hidden;background:#eaeef2;margin:4px 0}
.bar i{display:block;height:100%}
.chips{display:flex;flex-wrap:wrap;gap:3px}
.chip{display:inline-block;border-radius:10px;padding:0 7px;font-size:11.5px;line-height:18px;color:#fff;
font-variant-numeric:tabular-nums;white-space:nowrap}
.s-pass{background:var(--pass)}.s-fail{background:var(--fail)}.s-error{background:var(--error)}
.s-crash{background:var(--crash)}.s-timeout{background:var(--timeout)}.s-unsupported{background:var(--unsupported)}
.s-xfail{background:var(--xfail)}.s-xpass{background:var(--xpass)}.s-erratum{background:var(--erratum)}
.s-skipped{background:#6e7781}
table.dt{margin-top:6px;font-size:12px}table.dt td{border:0;padding:1px 6px 1px 0}
table.list{width:100%;font-size:13px}table.list th{text-align:left;background:#eef1f4}
table.list th,table.list td{border-bottom:1px solid var(--line);padding:4px 8px;vertical-align:top}
code,.mono{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,monospace;font-size:12.5px}
.muted{color:var(--muted)}.legend{margin-top:8px;font-size:12px;color:var(--muted)}
.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center;margin-bottom:10px}
.filters label.st{cursor:pointer;user-select:none;opacity:.35}.filters label.st.on{opacity:1}
.filters label.st input{display:none}
.filters select,.filters input[type=search]{font:inherit;padding:4px 8px;border:1px solid var(--line);
border-radius:6px;background:#fff}
.filters input[type=search]{min-width:280px;flex:1}
#count{color:var(--muted);font-size:13px;margin:4px 0 8px}
details.rec{border:1px solid var(--line);border-radius:8px;margin:5px 0;background:#fff}
details.rec>summary{cursor:pointer;padding:6px 10px;display:flex;gap:10px;align-items:baseline}
details.rec>summary .id{font-weight:600;word-break:break-all}
details.rec>summary .why{color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;flex:1;
min-width:0}
details.rec[open]>summary{border-bottom:1px solid var(--line);background:#f6f8fa;border-radius:8px 8px 0 0}
.body{padding:10px 14px;display:grid;grid-template-columns:minmax(320px,1fr) minmax(320px,1fr);gap:10px 28px}
/* a grid item keeps to its column: a wide worst-elements table scrolls instead of running under the heatmap */
.body>div{min-width:0;overflow-x:auto}
.body h4{margin:4px 0;font-size:13px;color:var(--muted);font-weight:600;text-transform:uppercase;
letter-spacing:.03em}
.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;font-size:13px}
.kv dt{color:var(--muted)}.kv dd{margin:0;word-break:break-word}
.mismatch{color:var(--fail);font-weight:600}
.reason{grid-column:1/-1;white-space:pre-wrap;background:#fff8f0;border-left:3px solid var(--error);
padding:6px 10px;margin:0}
.repro{grid-column:1/-1;display:flex;gap:8px;align-items:center}
.repro pre{flex:1;margin:0;background:#24292f;color:#f0f6fc;padding:7px 10px;border-radius:6px;overflow:auto}
button{font:inherit;font-size:12.5px;padding:4px 10px;border:1px solid var(--line);border-radius:6px;
background:#f6f8fa;cursor:pointer}button:hover{background:#eef1f4}
table.worst{font-size:12.5px}table.worst th,table.worst td{padding:2px 8px;border-bottom:1px solid var(--line);
text-align:right}
svg.heat rect:hover{stroke:#000;stroke-width:1}
svg.heat rect.worst-cell{stroke:#000;stroke-width:1.5;pointer-events:none}
ul.slices{margin:2px 0;padding-left:18px;font-size:12px}
#results,details.rec{scroll-margin-top:44px}
#linked{border-color:#0969da}.permalink{grid-column:1/-1;font-size:12px}.permalink a{color:#0969da}
.more{margin-top:8px}
"""
