// The erleah attendee chat widget (README.md, "Chat widget"). It talks to
// Directus only, with the official SDK, as a production frontend would: it
// creates a conversation and user messages with the attendee's own token
// and follows the agent's reply through a realtime subscription on
// `messages` (docs/contract.md §5): the acknowledgment and thinking notes
// in `thinking_output`, the answer in `messageText`, the cited items in
// `metadata.citations`.
import { createDirectus, staticToken, rest, realtime, readItems, readItem, createItem } from '@directus/sdk';
import css from './widget.css';

const script = document.currentScript;

const MESSAGE_FIELDS = ['id', 'conversation', 'role', 'messageText', 'status', 'thinking_output', 'metadata', 'reply_to', 'date_created'];
const CARD_FIELDS = {
  sessions: ['id', 'title', 'starts_at', 'ends_at', 'room', 'track', 'format'],
  exhibitors: ['id', 'name', 'booth', 'website'],
  speakers: ['id', 'name', 'job_title', 'company', 'session_ids'],
};

// config reads the script tag's data attributes, else the page's query
// (?directus=…&token=…&conference=…).
function config() {
  const ds = (script && script.dataset) || {};
  const q = new URLSearchParams(location.search);
  return {
    url: ds.directusUrl || q.get('directus') || '',
    token: ds.token || q.get('token') || '',
    conference: ds.conference || q.get('conference') || '',
    mount: ds.mount || '',
  };
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

let uid = 0;

class Widget {
  constructor(root, cfg) {
    this.cfg = cfg;
    this.key = 'erleah-widget:' + cfg.url;
    this.messages = new Map(); // id → message
    this.items = new Map(); // collection/id → item promise
    this.sub = null;
    this.client = createDirectus(cfg.url).with(staticToken(cfg.token)).with(rest()).with(realtime({ authMode: 'handshake' }));
    this.render(root);
  }

  render(root) {
    const id = 'erl' + ++uid;
    this.conf = el('select', { id: id + '-conf', name: 'conference' });
    this.fresh = el('button', { type: 'button', class: 'erl-secondary', text: 'New conversation' });
    this.log = el('ol', { class: 'erl-log', 'aria-label': 'Conversation' });
    this.question = el('textarea', { id: id + '-q', name: 'question', rows: '2', required: '', autocomplete: 'off' });
    this.send = el('button', { type: 'submit', text: 'Ask' });
    this.status = el('p', { class: 'erl-status', role: 'status' });
    const form = el('form', { class: 'erl-ask' },
      el('div', { class: 'erl-field' }, el('label', { for: id + '-q', text: 'Your question' }), this.question), this.send);
    this.box = el('section', { class: 'erl', 'aria-labelledby': id + '-h' },
      el('h2', { id: id + '-h', text: 'Ask the conference assistant' }),
      el('div', { class: 'erl-bar' },
        el('div', { class: 'erl-field' }, el('label', { for: id + '-conf', text: 'Conference' }), this.conf), this.fresh),
      this.log, form, this.status);
    root.append(this.box);
    form.addEventListener('submit', (e) => { e.preventDefault(); this.ask(); });
    this.question.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); }
    });
    this.fresh.addEventListener('click', () => this.reset());
    this.conf.addEventListener('change', () => { if (this.conv && this.conv.conference !== this.conf.value) this.reset(); });
  }

  fail(what, err) {
    const msg = (err && err.errors && err.errors[0] && err.errors[0].message) || (err && err.message) || String(err);
    this.status.textContent = what + ': ' + msg;
    console.error('erleah-widget:', what, err);
  }

  async start() {
    if (!this.cfg.url || !this.cfg.token) {
      this.status.textContent = 'The widget needs a Directus URL and a token (data-directus-url, data-token).';
      return;
    }
    try {
      const confs = await this.client.request(readItems('conferences', { fields: ['id', 'name', 'starts_on', 'timezone'], sort: ['starts_on'], limit: -1 }));
      this.zones = new Map(confs.map((c) => [c.id, c.timezone]));
      for (const c of confs) this.conf.append(el('option', { value: c.id, text: c.name || c.id }));
    } catch (err) { return this.fail('Could not load the conferences', err); }
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(this.key) || 'null'); } catch { /* ignore */ }
    if (saved && saved.id) {
      try {
        const c = await this.client.request(readItem('conversations', saved.id, { fields: ['id', 'conference'] }));
        this.conv = { id: c.id, conference: typeof c.conference === 'object' && c.conference ? c.conference.id : c.conference };
        this.conf.value = this.conv.conference;
        // Read over REST as well as in the subscription's init event: the
        // history shows even when the live subscription cannot start.
        const ms = await this.client.request(readItems('messages', {
          fields: MESSAGE_FIELDS, filter: { conversation: { _eq: c.id } }, sort: ['date_created'], limit: -1 }));
        ms.forEach((m) => this.upsert(m));
        await this.follow();
      } catch (err) {
        this.conv = null;
        localStorage.removeItem(this.key);
      }
    }
    if (!this.conv && this.cfg.conference) this.conf.value = this.cfg.conference;
    this.box.dataset.ready = 'true';
  }

  reset() {
    if (this.sub) this.sub.unsubscribe();
    this.sub = null;
    this.conv = null;
    this.messages.clear();
    this.log.replaceChildren();
    localStorage.removeItem(this.key);
    this.question.focus();
  }

  // follow subscribes to the conversation's messages; every init, create
  // and update event updates the view.
  async follow() {
    if (this.sub) return;
    const { subscription, unsubscribe } = await this.client.subscribe('messages', {
      query: { fields: MESSAGE_FIELDS, filter: { conversation: { _eq: this.conv.id } } },
    });
    this.sub = { unsubscribe };
    (async () => {
      try {
        for await (const ev of subscription) {
          if (ev.event === 'error') { this.fail('Live updates failed', ev.error); continue; }
          if (ev.event === 'delete') continue;
          for (const m of ev.data || []) this.upsert(m);
        }
      } catch (err) { this.fail('Live updates stopped', err); }
    })();
  }

  async ask() {
    const text = this.question.value.trim();
    if (!text) return;
    this.send.disabled = true;
    this.status.textContent = '';
    try {
      if (!this.conv) {
        if (!this.conf.value) throw new Error('pick a conference first');
        const c = await this.client.request(createItem('conversations', { conference: this.conf.value, title: text.slice(0, 80) }, { fields: ['id'] }));
        this.conv = { id: c.id, conference: this.conf.value };
        localStorage.setItem(this.key, JSON.stringify(this.conv));
      }
      await this.follow();
      const m = await this.client.request(createItem('messages', { conversation: this.conv.id, role: 'user', messageText: text, status: 'completed' }, { fields: MESSAGE_FIELDS }));
      this.upsert(m);
      this.question.value = '';
    } catch (err) {
      this.fail('Could not send the question', err);
    } finally {
      this.send.disabled = false;
      this.question.focus();
    }
  }

  upsert(m) {
    if (!m || !m.id) return;
    const old = this.messages.get(m.id) || {};
    m = { ...old, ...m };
    this.messages.set(m.id, m);
    if (m.role === 'user') this.userItem(m);
    else if (m.role === 'assistant') this.replyItem(m);
  }

  userItem(m) {
    let li = this.log.querySelector(`li.erl-q[data-id="${CSS.escape(m.id)}"]`);
    if (!li) {
      li = el('li', { class: 'erl-q', 'data-id': m.id }, el('span', { class: 'erl-sr', text: 'You: ' }), el('span', { class: 'erl-text' }));
      this.log.append(li);
      // a reply that arrived first moves after its question
      const r = this.log.querySelector(`li.erl-a[data-reply-to="${CSS.escape(m.id)}"]`);
      if (r) li.after(r);
    }
    li.querySelector('.erl-text').textContent = m.messageText || '';
  }

  replyItem(m) {
    const to = m.reply_to && typeof m.reply_to === 'object' ? m.reply_to.id : m.reply_to;
    let li = this.log.querySelector(`li.erl-a[data-id="${CSS.escape(m.id)}"]`);
    if (!li) {
      li = el('li', { class: 'erl-a', 'data-id': m.id, 'data-reply-to': to || '' },
        el('span', { class: 'erl-sr', text: 'Assistant: ' }),
        el('div', { class: 'erl-thinking', 'aria-live': 'polite', 'aria-label': 'What the assistant is doing' }),
        el('div', { class: 'erl-answer', 'aria-live': 'polite' }),
        el('ul', { class: 'erl-cards', 'aria-label': 'Cited items' }));
      const q = to && this.log.querySelector(`li.erl-q[data-id="${CSS.escape(to)}"]`);
      if (q) q.after(li); else this.log.append(li);
    }
    const notes = li.querySelector('.erl-thinking');
    const records = Array.isArray(m.thinking_output) ? m.thinking_output : [];
    for (let i = notes.children.length; i < records.length; i++) {
      const r = records[i] || {};
      notes.append(el('p', { class: 'erl-note' + (r.strategy === 'acknowledgment' ? ' erl-ack' : ''), 'data-strategy': r.strategy || '', text: r.message || '' }));
    }
    const answer = li.querySelector('.erl-answer');
    answer.dataset.status = m.status || 'pending';
    answer.setAttribute('aria-busy', m.status === 'pending' || m.status === 'streaming' ? 'true' : 'false');
    if ((m.messageText || '') !== answer.textContent) answer.textContent = m.messageText || '';
    if (m.status === 'completed' && !li.dataset.cards) {
      li.dataset.cards = 'loading';
      this.cards(li.querySelector('.erl-cards'), (m.metadata && m.metadata.citations) || []).then(() => { li.dataset.cards = 'done'; });
    }
    this.log.scrollTop = this.log.scrollHeight;
  }

  item(collection, id) {
    const k = collection + '/' + id;
    if (!this.items.has(k)) {
      this.items.set(k, this.client.request(readItem(collection, id, { fields: CARD_FIELDS[collection] })).catch(() => null));
    }
    return this.items.get(k);
  }

  async cards(ul, citations) {
    const seen = new Set();
    const list = citations.filter((c) => c && CARD_FIELDS[c.collection] && !seen.has(c.collection + c.id) && seen.add(c.collection + c.id));
    const items = await Promise.all(list.map(async (c) => {
      const it = await this.item(c.collection, c.id);
      if (it && c.collection === 'speakers' && Array.isArray(it.session_ids) && it.session_ids.length && !it.sessions) {
        it.sessions = await this.client.request(readItems('sessions', {
          fields: ['id', 'title'], filter: { id: { _in: it.session_ids } }, sort: ['starts_at'], limit: 10 })).catch(() => []);
      }
      return it;
    }));
    list.forEach((c, i) => ul.append(this.card(c, items[i] || {})));
  }

  card(c, it) {
    // times in the conference's own time zone, as the programme prints them
    const zone = (this.zones && this.zones.get(this.conv ? this.conv.conference : this.conf.value)) || undefined;
    const fmt = (s, o) => { try { return new Date(s).toLocaleString(undefined, { ...o, timeZone: zone }); } catch { return new Date(s).toLocaleString(undefined, o); } };
    const when = (s) => (s ? fmt(s, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }) : '');
    const lines = [];
    let kind = c.collection;
    if (c.collection === 'sessions') {
      kind = 'Session';
      lines.push([when(it.starts_at), it.ends_at ? fmt(it.ends_at, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }) : ''].filter(Boolean).join(' – '));
      lines.push([it.room && 'Room ' + it.room, it.track, it.format].filter(Boolean).join(' · '));
    } else if (c.collection === 'exhibitors') {
      kind = 'Exhibitor';
      if (it.booth) lines.push('Booth ' + it.booth);
    } else if (c.collection === 'speakers') {
      kind = 'Speaker';
      lines.push([it.job_title, it.company].filter(Boolean).join(', '));
      if (Array.isArray(it.sessions) && it.sessions.length) lines.push('Sessions: ' + it.sessions.map((x) => x.title).join('; '));
    }
    const li = el('li', { class: 'erl-card', 'data-collection': c.collection, 'data-id': c.id },
      el('span', { class: 'erl-kind', text: kind }),
      el('h3', { text: c.title || it.title || it.name || c.id }));
    for (const l of lines) if (l) li.append(el('p', { text: l }));
    if (c.collection === 'exhibitors' && it.website && /^https?:\/\//.test(it.website)) {
      li.append(el('p', {}, el('a', { href: it.website, rel: 'noopener noreferrer', target: '_blank', text: it.website.replace(/^https?:\/\//, '') })));
    }
    return li;
  }
}

function boot() {
  const cfg = config();
  if (!document.getElementById('erleah-widget-style')) {
    document.head.append(el('style', { id: 'erleah-widget-style', text: css }));
  }
  let root = (cfg.mount && document.querySelector(cfg.mount)) || document.getElementById('erleah-widget');
  if (!root) {
    root = el('div', { id: 'erleah-widget' });
    if (script && script.parentNode && script.parentNode !== document.head) script.after(root);
    else document.body.append(root);
  }
  const w = new Widget(root, cfg);
  window.erleahWidget = w;
  w.start();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
else boot();
