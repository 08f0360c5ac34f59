"""The report script's reading of the URL fragment (docs/reports.md, "Results"): the filters kept in the URL,
``open=N``, and a record named by the link (``#id=ID&backend=B``, or the fragment's first part alone: an instance
id or an item id ``ID::BACKEND``).

The records a link opens are shown in a panel at the top of the page, never scrolled to: headless chromium's
``--screenshot`` paints a scrolled page blank (it captures the top of the document while only the scrolled-to part
is rasterised), and a reader who follows a link lands on the record without a jump past the header. Spliced into
assets_js.JS, inside its closure: it uses the list's functions (summary, fill, apply) and sets ``P``.
"""

FRAGMENT_JS = r"""
var LINK=null, IDS=null;
function known(id){
  if(!IDS){IDS=Object.create(null);R.forEach(function(r){IDS[r.id]=1;});}
  return id in IDS;
}
// (instance id, backend) of an item id, both forms (records.split_item_id): case::backend[params] as pytest shows
// it, case[params]::backend; or an instance id alone
function split(text){
  var k=text.indexOf('['), base=k<0?text:text.slice(0,k), cut=base.lastIndexOf('::');
  if(cut>=0)return {id:base.slice(0,cut)+text.slice(base.length),backend:base.slice(cut+2)};
  cut=text.lastIndexOf(']::');
  return cut>=0?{id:text.slice(0,cut+1),backend:text.slice(cut+3)}:{id:text,backend:''};
}
// {id, backend} of the record the fragment names, or null. Its first part alone names one only when it is a
// record's id or item id: '#results' and the other section anchors stay plain anchors.
function named(hash,p){
  var text=p.get('id'), first=hash.split('&')[0], bare=!text;
  if(bare&&first&&first.indexOf('=')<0){try{text=decodeURIComponent(first);}catch(e){text=null;}}
  if(!text)return null;
  var link=known(text)?{id:text,backend:''}:split(text);
  link.backend=p.get('backend')||link.backend;
  return bare&&!known(link.id)?null:link;
}
function parse(){var hash=location.hash.slice(1), p=new URLSearchParams(hash);return {p:p,link:named(hash,p)};}
function readHash(f){
  var p=f.p, s=p.get('status');
  LINK=f.link;
  // a named record is shown whatever its status; any other fragment starts from the failing statuses
  D.statuses.forEach(function(x){want[x]=s?s.split(',').indexOf(x)>=0:!!LINK||D.failing.indexOf(x)>=0;});
  var b=p.get('backend')||(LINK?LINK.backend:''), q=p.get('q')||(LINK?LINK.id:'');
  if(b)fb.value=b;
  if(p.get('op'))fo.value=p.get('op');
  if(q)fq.value=q;
  return p;
}
function linkTo(i){
  return '#id='+encodeURIComponent(R[i].id)+'&backend='+encodeURIComponent(R[i].backend)+'&open=1';
}
// The records the fragment opens: the named one (on each of its backends unless one is named), whatever the
// filters; else the first N of the filtered list. null: the fragment opens none.
function opened(p){
  var n=p.has('open')?Math.min(10,+p.get('open')||0):(LINK?10:0);
  if(!n)return null;
  if(!LINK)return hits.slice(0,n);
  var out=[];
  for(var i=0;i<R.length&&out.length<n;i++)
    if(R[i].id===LINK.id&&(!LINK.backend||R[i].backend===LINK.backend))out.push(i);
  return out;
}
function pin(p){
  var old=$('linked');if(old)old.parentNode.removeChild(old);
  document.body.removeAttribute('data-linked');
  var list=opened(p);
  if(list==null)return null;
  var what=LINK?LINK.id+(LINK.backend?' on '+LINK.backend:''):list.length+' of the records the link\'s filters select';
  var s=el('section',{id:'linked'},el('h2',null,'Opened from the link ',el('small',{text:what})));
  if(!list.length)s.appendChild(el('p',{'class':'mismatch',text:LINK?'No record '+what+' in this report.':
    'No record matches the link\'s filters.'}));
  list.forEach(function(i){var d=summary(i);d.classList.add('linked');d.open=true;fill(d);s.appendChild(d);});
  s.appendChild(el('p',{'class':'legend'},'The link\'s filters are set in ',el('a',{href:'#results',text:'Results'}),
    ' below.'));
  var main=document.querySelector('main');main.insertBefore(s,main.firstChild);
  document.body.setAttribute('data-linked',String(list.length));
  return s;
}
// A fragment that selects something (a filter, open=N, a record) shows it: the opened records in the panel at the
// top, else the results list, scrolled to. '#results' (the nav and matrix links) is a plain anchor the browser
// scrolls to itself.
var KEYS=['status','backend','op','q','open','id'];
function selects(f){return !!f.link||KEYS.some(function(k){return f.p.has(k);});}
function reveal(p,loading){
  var panel=pin(p);
  // scroll=0 keeps the page at its top (a headless --screenshot of a scrolled page comes out blank); the panel
  // needs no scroll when the page loads, it is at the top
  if(p.get('scroll')==='0'||(panel&&loading))return;
  (panel||$('results')).scrollIntoView({block:'start'});
  document.body.setAttribute('data-scrolled',(panel?'record ':'')+Math.round(window.scrollY));
}
var F=parse(), P=readHash(F);syncChips();apply();
if(selects(F))reveal(P,true);
window.addEventListener('hashchange',function(){
  var f=parse();if(!selects(f))return;
  fb.value='';fo.value='';fq.value='';readHash(f);syncChips();apply();reveal(f.p,false);});
"""
