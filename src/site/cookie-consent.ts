// The cookie notice's browser side (docs/decisions/027-personal-data.md): one inline script,
// allowed by its hash (server/http/csp.ts), that reads the visitor's choice from a cookie, shows the
// notice when there is none, loads the counter only after «Принять», and removes the counter's
// cookies on «Отклонить» or a withdrawal. Every page is the same for everyone (the page cache
// serves one copy): the notice's markup is in every page, hidden, and this script decides.
// The counter's id, script URL, the notice text's version and the log endpoint are the notice's
// data attributes, so the script's text (and its hash) never changes.

/** The cookie that keeps the choice: `1.<version>` (analytics allowed) or `0.<version>`. */
export const COOKIE_CHOICE_NAME = 'vitrina_cookies'
/** A year, in seconds: how long the choice is kept. */
export const COOKIE_CHOICE_MAX_AGE = 365 * 24 * 3600
export const COOKIE_NOTICE_ID = 'cookie-notice'

/** What the notice says; the full text is the cookie page the notice links to. */
export const COOKIE_NOTICE_TEXT = {
  title: 'Мы используем файлы cookie',
  body:
    'Сайт использует обязательные файлы cookie для своей работы. С вашего согласия мы также ' +
    'подключим Яндекс Метрику, чтобы понимать, как посетители пользуются сайтом.',
  more: 'Подробнее',
  accept: 'Принять',
  reject: 'Отклонить',
  settings: 'Настроить',
  analytics: 'Аналитика (Яндекс Метрика)',
  analyticsHint: 'Статистика посещений. Без вашего согласия счётчик не загружается.',
  required: 'Обязательные: хранят ваш выбор и работу форм. Отключить нельзя.',
  save: 'Сохранить выбор',
  footerLink: 'Настройки cookie',
} as const

/** The notice's script. Written as text so that the page and the policy hash the same bytes. */
export const COOKIE_CONSENT_SCRIPT = `(function(){
var n=document.getElementById('${COOKIE_NOTICE_ID}');if(!n)return;
var d=n.dataset,w=window,id=Number(d.counter),K='${COOKIE_CHOICE_NAME}';
function choice(){var m=document.cookie.match(/(?:^|; )${COOKIE_CHOICE_NAME}=([01])\\.([^;]*)/);return m&&m[2]===d.version?m[1]:null}
function load(){w['disableYaCounter'+id]=false;if(w.ym)return;
w.ym=function(){(w.ym.a=w.ym.a||[]).push(arguments)};w.ym.l=Date.now();
var s=document.createElement('script');s.async=true;s.src=d.src;document.head.appendChild(s);
w.ym(id,'init',{clickmap:true,trackLinks:true,accurateTrackBounce:true})}
function wipe(){w['disableYaCounter'+id]=true;var h=location.hostname.split('.');
document.cookie.split('; ').forEach(function(c){var k=c.split('=')[0];if(!/^_ym/.test(k))return;
for(var i=0;i<h.length;i++)document.cookie=k+'=; Max-Age=0; Path=/; Domain='+h.slice(i).join('.');
document.cookie=k+'=; Max-Age=0; Path=/'});
try{Object.keys(localStorage).forEach(function(k){if(/^_ym/.test(k))localStorage.removeItem(k)})}catch(e){}}
function save(on){document.cookie=K+'='+(on?1:0)+'.'+d.version+'; Max-Age=${COOKIE_CHOICE_MAX_AGE}; Path=/; SameSite=Lax'+(location.protocol==='https:'?'; Secure':'');
if(on)load();else wipe();n.hidden=true;
fetch(d.endpoint,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({analytics:on,version:d.version}),keepalive:true}).catch(function(){})}
function panel(open){var p=n.querySelector('[data-panel]'),b=n.querySelector('[data-action=settings]');p.hidden=!open;b.setAttribute('aria-expanded',String(open));
if(open){var c=n.querySelector('[data-analytics]');c.checked=choice()==='1';c.focus()}}
n.addEventListener('click',function(e){var t=e.target.closest('button');if(!t)return;var a=t.getAttribute('data-action');
if(a==='accept')save(true);else if(a==='reject')save(false);else if(a==='settings')panel(n.querySelector('[data-panel]').hidden);
else if(a==='save')save(n.querySelector('[data-analytics]').checked)});
document.querySelectorAll('[data-cookie-settings]').forEach(function(b){b.hidden=false;b.addEventListener('click',function(){n.hidden=false;panel(true)})});
var c=choice();if(c==='1')load();else if(c===null)n.hidden=false})();`
