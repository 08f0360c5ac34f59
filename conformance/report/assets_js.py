"""Inline script of the HTML report.

Record data comes from the JSON island (summaries) and the details files (details.py), and is only ever placed
with textContent / setAttribute, never innerHTML, so a record cannot inject markup. The results list renders one
page of summaries at a time and loads and builds a record's drill-down only when it is opened: 20,000 records cost
one array filter, not 20,000 DOM nodes.
"""

from .assets_js_fragment import FRAGMENT_JS

JS = r"""
(function(){
'use strict';
var T0=performance.now();
var D=JSON.parse(document.getElementById('report-data').textContent);
// every record's summary (embed.py pack_summary): its fields are indices into one string table
var P0=D.summary, F=P0.fields, S=P0.strings;
var R=P0.rows.map(function(row){var o={};for(var k=0;k<row.length;k++)o[F[k]]=S[row[k]];return o;});
// A record's details (details.py): the file of its chunk is loaded once, by a script element, when a record of it
// is opened; a file of another report (its token differs) or a missing one is said in the record, never shown.
var DT=D.details, CHUNKS={}, WAITING={};
window.conformanceDetails=function(token,k,text){
  if(token!==DT.token||!WAITING[k])return;
  var p=JSON.parse(text), f=p.fields, s=p.strings, fi=p.interned;
  CHUNKS[k]=p.rows.map(function(row){var o={};for(var j=0;j<row.length;j++){var v=row[j];
    if(v!==null)o[f[j]]=fi[j]?s[v]:v;}return o;});
  settle(k,null);
};
function settle(k,error){var w=WAITING[k]||[];delete WAITING[k];w.forEach(function(f){f(error);});}
function chunkName(k){var n=String(k);while(n.length<4)n='0'+n;return DT.folder+'/records-'+n+'.js';}
function details(i,done){
  var k=Math.floor(i/DT.chunk);
  if(CHUNKS[k]){done(CHUNKS[k][i-k*DT.chunk]);return;}
  var first=!WAITING[k];(WAITING[k]=WAITING[k]||[]).push(function(error){
    done(error?null:CHUNKS[k][i-k*DT.chunk],error);});
  if(!first)return;
  var sc=document.createElement('script');sc.src=chunkName(k);
  sc.onerror=function(){settle(k,'cannot read '+chunkName(k)+' beside this page: copy the report folder whole');};
  // loaded but never called back with this report's token: a file of another report
  sc.onload=function(){if(WAITING[k])settle(k,chunkName(k)+' belongs to another report (the folder mixes runs)');};
  document.head.appendChild(sc);
}
var PAGE=100, shown=0, hits=[];
var HAY=R.map(function(r){return (r.id+' '+r.backend+' '+(r.reason||'')+' '+(r.expectation||'')).toLowerCase();});
var $=function(id){return document.getElementById(id);};
function el(tag,attrs){
  var e=document.createElement(tag);
  if(attrs)for(var k in attrs){if(k==='text')e.textContent=attrs[k];else e.setAttribute(k,attrs[k]);}
  for(var i=2;i<arguments.length;i++){var c=arguments[i];if(c!=null)e.appendChild(typeof c==='string'?
    document.createTextNode(c):c);}
  return e;
}
function num(v){
  if(v==null)return '';
  if(typeof v!=='number')return String(v);
  if(v===0)return '0';
  var a=Math.abs(v);
  if(Number.isInteger(v)&&a<1e9)return String(v);
  return (a<1e-3||a>=1e5)?v.toExponential(3):String(+v.toPrecision(4));
}
// A value as stored, every digit: the comparison stores the dtype's shortest text (compare/values.py shortest), so
// values one ULP apart read differently; num()'s four digits would make them look equal.
function full(v){
  if(typeof v!=='number')return v==null?'—':String(v);
  return Object.is(v,-0)?'-0':String(v);
}
function shape(s){return s==null?'—':'['+s.join(', ')+']';}
function ints(a){return Array.isArray(a)&&a.every(function(x){return typeof x==='number';});}
function row(r){return r.domain+'/'+r.op+'-'+r.version;}
function chip(s,text){return el('span',{'class':'chip s-'+s,text:text==null?s:text});}

var st=$('f-status'), fb=$('f-backend'), fo=$('f-op'), fq=$('f-q');
var want={};
function syncChips(){
  Array.prototype.forEach.call(st.querySelectorAll('label.st'),function(l){
    var s=l.getAttribute('data-s');l.classList.toggle('on',!!want[s]);l.querySelector('input').checked=!!want[s];});
}
function writeHash(){
  var p=new URLSearchParams();
  p.set('status',D.statuses.filter(function(s){return want[s];}).join(','));
  if(fb.value)p.set('backend',fb.value);if(fo.value)p.set('op',fo.value);if(fq.value)p.set('q',fq.value);
  try{history.replaceState(null,'','#'+p.toString());}catch(e){/* some file:// contexts refuse: not needed */}
}
function apply(){
  var q=fq.value.trim().toLowerCase(), b=fb.value, o=fo.value, out=[];
  for(var i=0;i<R.length;i++){
    var r=R[i];
    if(!want[r.status])continue;
    if(b&&r.backend!==b)continue;
    if(o&&r.row!==o)continue;
    if(q&&HAY[i].indexOf(q)<0)continue;
    out.push(i);
  }
  hits=out;shown=0;$('list').textContent='';more();
  $('count').textContent=hits.length+' of '+R.length+' records match';
  // Matrix follows the backend/op filters so the two views never disagree.
  Array.prototype.forEach.call(document.querySelectorAll('table.matrix tbody tr'),function(tr){
    tr.style.display=(!o||tr.getAttribute('data-row')===o)?'':'none';});
  Array.prototype.forEach.call(document.querySelectorAll('table.matrix [data-b]'),function(c){
    c.style.display=(!b||c.getAttribute('data-b')===b)?'':'none';});
}
function more(){
  var list=$('list'), end=Math.min(hits.length,shown+PAGE), frag=document.createDocumentFragment();
  for(var k=shown;k<end;k++)frag.appendChild(summary(hits[k]));
  list.appendChild(frag);shown=end;
  var m=$('more');m.style.display=shown<hits.length?'':'none';
  m.textContent='Show '+Math.min(PAGE,hits.length-shown)+' more ('+(hits.length-shown)+' remaining)';
}
function summary(i){
  var r=R[i], d=el('details',{'class':'rec','data-i':i});
  d.appendChild(el('summary',null,chip(r.status),el('span',{'class':'id mono',text:r.id}),
    el('span',{'class':'muted',text:r.backend}),el('span',{'class':'why',text:r.reason||''})));
  d.addEventListener('toggle',function(){if(d.open)fill(d);});
  return d;
}
function fill(d){
  if(d.getAttribute('data-filled'))return;
  d.setAttribute('data-filled','1');
  var wait=el('div',{'class':'body muted',text:'loading details…'});d.appendChild(wait);
  details(+d.getAttribute('data-i'),function(full,error){
    d.replaceChild(full?body(full):el('pre',{'class':'reason mismatch',text:error}),wait);
    // the record's own URL (assets_js_fragment.py): shared, it opens this record at the top of the page
    if(full)d.lastChild.appendChild(el('div',{'class':'permalink'},el('a',{href:linkTo(+d.getAttribute('data-i')),
      text:'link to this record'})));});
}
function kv(pairs){
  var dl=el('dl',{'class':'kv'});
  pairs.forEach(function(p){if(p[1]==null||p[1]==='')return;dl.appendChild(el('dt',{text:p[0]}));
    var dd=el('dd',{text:String(p[1])});if(p[2])dd.className='mismatch';dl.appendChild(dd);});
  return dl;
}
function counted(x){
  return x.mismatches!=null?x.mismatches+' / '+(x.elements!=null?x.elements:'?')+(x.elements?' ('+
    num(100*x.mismatches/x.elements)+'%)':''):'';
}
function body(r){
  var b=el('div',{'class':'body'});
  if(r.reason)b.appendChild(el('pre',{'class':'reason',text:r.reason}));
  var left=el('div',null,el('h4',{text:'Case'}),kv([['op',row(r)],['dtype',r.dtype],['layout',r.layout],
    ['backend',r.backend+(r.backend_version?' '+r.backend_version:'')],['source',r.source],['case file',r.case_file],
    ['attributes',r.attributes?JSON.stringify(r.attributes):''],
    ['input shapes',r.input_shapes?r.input_shapes.map(shape).join('  '):''],['tags',(r.tags||[]).join(', ')],
    ['expectation',r.expectation],['lowered',r.lowered],['duration',r.duration_s!=null?num(r.duration_s)+' s':'']]));
  var sbad=JSON.stringify(r.expected_shape)!==JSON.stringify(r.actual_shape)&&r.actual_shape!=null;
  var dbad=r.actual_dtype!=null&&r.expected_dtype!==r.actual_dtype;
  var hasS=r.expected_shape!=null||r.actual_shape!=null, hasD=r.expected_dtype!=null||r.actual_dtype!=null;
  // Several outputs: the block shows the one that failed (an op failing on its indices only must not show the
  // values output's clean figures); shape and dtype are output 0's (the record contract), so they say whose.
  var outs=Array.isArray(r.outputs)?r.outputs:[], bad=outs.filter(function(o){return o&&o.ok===false;})[0];
  var f=bad||r, whose=bad&&bad!==outs[0]&&outs[0]&&outs[0].name?' of '+outs[0].name:'';
  var title=bad?'Output '+bad.name+' (fails'+(outs.length>1?'; output '+(outs.indexOf(bad)+1)+' of '+outs.length:
    '')+')':'Output';
  var right=el('div',{'class':'out-sum'},el('h4',{text:title}),kv([['shape'+whose,hasS?shape(r.expected_shape)+
    ' expected, '+shape(r.actual_shape)+' actual':'',sbad],['dtype'+whose,hasD?(r.expected_dtype||'—')+
    ' expected, '+(r.actual_dtype||'—')+' actual':'',dbad],
    ['max abs err',num(f.max_abs_err)],['max rel err',num(f.max_rel_err)],['max ulp',maxUlp(f)],
    ['mismatches',counted(f),f.mismatches>0],['unspecified',f.unspecified?f.unspecified+' elements':''],
    ['tolerance',bad&&bad.tolerance||r.tolerance]]));
  b.appendChild(left);if(right.lastChild.children.length)b.appendChild(right);
  if(r.outputs&&r.outputs.length){r.outputs.forEach(function(o){b.appendChild(output(o));});}
  else{
    if(r.worst&&r.worst.length)b.appendChild(worst(r.worst));
    if(r.error_grid&&r.error_grid.length)b.appendChild(heat(r.error_grid,r.error_grid_at));
  }
  if(r.reproduce||r.repro||r.nodeid){
    // conformance repro works from any folder; the pytest command only from the run's folder
    var text=r.reproduce||r.repro||('pytest '+r.nodeid), btn=el('button',{type:'button',text:'Copy'});
    btn.addEventListener('click',function(){copy(text,btn);});
    b.appendChild(el('div',{'class':'repro'},el('pre',{'class':'mono',text:text}),btn));
  }
  return b;
}
function output(o){
  var mm=o.mismatches!=null?o.mismatches+' / '+(o.elements!=null?o.elements:'?'):'';
  var d=el('div',{'class':'output'},el('h4',{text:'Output '+o.name+' ('+o.error_model+(o.ok?')':') fails')}),
    kv([['max abs err',num(o.max_abs_err)],['max rel err',num(o.max_rel_err)],['max ulp',maxUlp(o)],
      ['mismatches',mm,o.mismatches>0],['ties accepted',o.ties?String(o.ties):''],
      ['unspecified',o.unspecified?o.unspecified+' elements':''],['tolerance',o.tolerance],['reason',o.reason,!o.ok]]));
  if(o.worst&&o.worst.length)d.appendChild(worst(o.worst));
  if(o.error_grid&&o.error_grid.length)d.appendChild(heat(o.error_grid,o.error_grid_at));
  return d;
}
// No ULP figure where the expected value is 0 or subnormal (compare/values.py, scales_with_value): the record
// has ulp null there (and where a value is not finite, whose |err| is no number); max_ulp leaves such elements
// out, so 0 beside a nonzero max abs err means every error is at one of them.
function ulpOf(e){
  return e.ulp!=null?num(e.ulp):e.ulp===null&&typeof e.abs_err==='number'&&isFinite(e.abs_err)?'—':'';
}
function maxUlp(x){
  return x.max_ulp===0&&typeof x.max_abs_err==='number'&&x.max_abs_err>0?'— (errors only where 0 or a subnormal '+
    'is expected: see max abs err)':num(x.max_ulp);
}
function worst(w){
  var t=el('table',{'class':'worst mono'}),h=el('tr');
  ['index','expected','actual','|err|','allowed','ulp','|err|/allowed'].forEach(function(x){
    h.appendChild(el('th',{text:x}));});
  t.appendChild(h);
  w.forEach(function(e){
    var ratio=(typeof e.abs_err==='number'&&typeof e.allowed==='number'&&e.allowed>0)?e.abs_err/e.allowed:null;
    var tr=el('tr');
    [Array.isArray(e.index)?'['+e.index.join(',')+']':e.index,full(e.expected),full(e.actual),num(e.abs_err),
      num(e.allowed),ulpOf(e),ratio==null?'':num(ratio)].forEach(function(x){
      tr.appendChild(el('td',{text:String(x)}));});
    if(ratio>1)tr.lastChild.className='mismatch';
    t.appendChild(tr);
  });
  return el('div',null,el('h4',{text:'Worst elements'}),t,el('div',{'class':'legend',text:'expected and actual '+
    'as stored: every digit of the output dtype\'s shortest text; ulp: |err| in ULPs of the expected value, — '+
    'where 0 or a subnormal is expected (an ULP there is the smallest subnormal whatever the arithmetic: |err| '+
    'is the figure)'}));
}
function color(v){
  if(typeof v!=='number'||isNaN(v))return '#6e40c9';
  if(v<=1){var l=96-Math.round(v*40);return 'hsl(140,45%,'+l+'%)';}
  var x=Math.min(1,Math.log10(v)/2);return 'hsl('+Math.round(40-40*x)+',85%,'+Math.round(58-18*x)+'%)';
}
function heat(g,at){
  var NS='http://www.w3.org/2000/svg', rows=g.length, cols=Math.max.apply(null,g.map(function(r){return r.length;}));
  var c=Math.max(4,Math.min(18,Math.floor(300/Math.max(rows,cols)))), s=document.createElementNS(NS,'svg');
  // where the grid is (records of older runs have no error_grid_at: their grid is the first slice, pooled)
  var ok=at&&typeof at==='object'&&ints(at.slice)&&ints(at.rows)&&ints(at.cols)&&ints(at.worst)&&
    at.rows.length===2&&at.cols.length===2&&at.worst.length===2;
  var r0=ok?at.rows[0]:0, c0=ok?at.cols[0]:0;
  // a grid pooled on embedding (over 64 a side) covers several elements per cell
  var sr=ok?Math.max(1,Math.ceil((at.rows[1]-r0)/rows)):1, sc=ok?Math.max(1,Math.ceil((at.cols[1]-c0)/cols)):1;
  var lead=ok?at.slice.join(','):'', pre=lead?lead+',':'';
  s.setAttribute('class','heat');s.setAttribute('width',cols*c);s.setAttribute('height',rows*c);
  g.forEach(function(line,i){line.forEach(function(v,j){
    var n=typeof v==='number'?v:parseFloat(v), q=document.createElementNS(NS,'rect');
    var tt=document.createElementNS(NS,'title'), pos=ok?'['+pre+(r0+i*sr)+','+(c0+j*sc)+']'+
      (sr>1||sc>1?' ('+sr+'×'+sc+' block)':''):'['+i+','+j+']';
    q.setAttribute('x',j*c);q.setAttribute('y',i*c);q.setAttribute('width',c);q.setAttribute('height',c);
    q.setAttribute('fill',color(n));tt.textContent=pos+' |err|/allowed = '+num(v);q.appendChild(tt);
    s.appendChild(q);});});
  var head='Error heatmap ('+rows+'×'+cols+')', notes=[];
  if(ok){
    var wi=Math.floor((at.worst[0]-r0)/sr), wj=Math.floor((at.worst[1]-c0)/sc);
    if(wi>=0&&wi<rows&&wj>=0&&wj<cols){
      var m=document.createElementNS(NS,'rect');m.setAttribute('class','worst-cell');
      m.setAttribute('x',wj*c+0.5);m.setAttribute('y',wi*c+0.5);m.setAttribute('width',c-1);
      m.setAttribute('height',c-1);m.setAttribute('fill','none');s.appendChild(m);
    }
    var plane=ints(at.plane)?at.plane:null, whole=plane&&r0===0&&c0===0&&at.rows[1]===plane[0]&&
      at.cols[1]===plane[1];
    head='Error heatmap of slice ['+pre+':,:]'+(whole||!plane?'':', rows '+r0+'–'+(at.rows[1]-1)+', columns '+c0+
      '–'+(at.cols[1]-1)+' of '+plane[0]+'×'+plane[1]+' (the window around the worst element)');
    notes.push('worst element ['+pre+at.worst.join(',')+'] outlined');
    if(typeof at.mismatches==='number')notes.push(at.mismatches+' mismatch(es) in this slice'+
      (whole||typeof at.in_window!=='number'?'':', '+at.in_window+' in the window'));
  }
  var box=el('div',{'class':'heatbox'},el('h4',{text:head}),s,el('div',{'class':'legend',
    text:'|error| / allowed per element: pale green = exact, dark green = within tolerance, orange→red = over '+
    '(red at 100×), purple = NaN'+(notes.length?'; '+notes.join('; '):'')}));
  if(ok&&Array.isArray(at.slices)&&at.slices.length>1){
    // the other slices stay reachable: which ones have mismatches, and how many
    var list=el('ul',{'class':'slices mono'}), total=typeof at.slices_total==='number'?at.slices_total:0;
    at.slices.forEach(function(x){if(!x||!ints(x.at))return;
      var li=el('li',{text:'['+x.at.concat([':',':']).join(',')+']: '+x.mismatches+' mismatch(es)'+
        (x.at.join(',')===lead?' (shown)':'')});list.appendChild(li);});
    box.appendChild(el('div',{'class':'legend',text:'Slices with mismatches'+(total?' ('+total+')':'')+':'}));
    box.appendChild(list);
    if(total>at.slices.length)box.appendChild(el('div',{'class':'legend',text:'… and '+(total-at.slices.length)+
      ' more slice(s)'}));
  }
  return box;
}
function copy(text,btn){
  function done(){btn.textContent='Copied';setTimeout(function(){btn.textContent='Copy';},1200);}
  function fallback(){var t=el('textarea');t.value=text;document.body.appendChild(t);t.select();
    try{document.execCommand('copy');done();}catch(e){btn.textContent='copy failed: select it by hand';}t.remove();}
  if(navigator.clipboard&&navigator.clipboard.writeText)navigator.clipboard.writeText(text).then(done,fallback);
  else fallback();
}
Array.prototype.forEach.call(st.querySelectorAll('input'),function(i){i.addEventListener('change',function(){
  want[i.value]=i.checked;syncChips();writeHash();apply();});});
[fb,fo].forEach(function(x){x.addEventListener('change',function(){writeHash();apply();});});
fq.addEventListener('input',function(){writeHash();apply();});
$('more').addEventListener('click',more);
Array.prototype.forEach.call(document.querySelectorAll('a[data-op]'),function(a){a.addEventListener('click',
  function(){fo.value=a.getAttribute('data-op');writeHash();apply();});});
""" + FRAGMENT_JS + r"""
document.body.setAttribute('data-ready','1');
var T1=performance.now();
if(P.get('bench')){
  // Benchmark hook: time one filter pass and one page render, written into the DOM for --dump-dom to read.
  var q=P.get('bench_q')||'fail', t2=performance.now();
  D.statuses.forEach(function(x){want[x]=true;});fq.value=q;apply();
  var t3=performance.now(), m1=hits.length;
  D.statuses.forEach(function(x){want[x]=x==='pass';});fq.value='';fb.value=fb.options[1]?fb.options[1].value:'';
  apply();
  var t4=performance.now(), figures={parse_and_init_ms:T1-T0,since_navigation_ms:T1,search_filter_ms:t3-t2,
    search_matches:m1,status_backend_filter_ms:t4-t3,status_backend_matches:hits.length,records:R.length};
  // opening the last record: its details file read and parsed (the load event waits for the script)
  var last=R.length-1;
  if(last<0){$('bench').textContent=JSON.stringify(figures);}
  else details(last,function(full,error){figures.open_record_ms=performance.now()-t4;figures.details_error=error||'';
    $('bench').textContent=JSON.stringify(figures);});
}
})();
"""
