// The chat widget end to end in headless Chromium (scripts/browser-test.sh
// runs it): a real Directus (DIRECTUS_URL, DIRECTUS_ADMIN_TOKEN), a real
// `serve` (AGENT_URL) answering through the Flow, and an attendee with the
// README's role. Exits non-zero on the first failed check.
//
// Environment: DIRECTUS_URL, DIRECTUS_ADMIN_TOKEN, AGENT_URL; optional
// CHROMIUM (default /usr/bin/chromium), SCREENSHOT (default a temp file; docs/widget.png to refresh the README's),
// TIMING_QUESTIONS (default 10), CONFERENCE (default aidata26).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

const D = process.env.DIRECTUS_URL;
const ADMIN = process.env.DIRECTUS_ADMIN_TOKEN;
const AGENT = process.env.AGENT_URL;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SCREENSHOT = process.env.SCREENSHOT || join(tmpdir(), 'erleah-widget.png'); // SCREENSHOT=docs/widget.png refreshes the README's
const N = Number(process.env.TIMING_QUESTIONS || 10);
const CONF = process.env.CONFERENCE || 'aidata26';
const ANSWER_TIMEOUT = 90_000;
if (!D || !ADMIN || !AGENT) {
  console.error('browser.mjs: set DIRECTUS_URL, DIRECTUS_ADMIN_TOKEN and AGENT_URL');
  process.exit(2);
}

const log = (...a) => console.error('browser-test:', ...a);
function check(ok, what) {
  if (!ok) throw new Error('check failed: ' + what);
  log('ok:', what);
}

async function api(method, path, body) {
  const res = await fetch(D + path, {
    method,
    headers: { Authorization: 'Bearer ' + ADMIN, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text).data : null;
}

// attendee creates a user with the attendee role `directus setup` made
// (erleah-attendee: create/read on conversations and messages, read on the
// programme) and a static token, as the README says to.
async function attendee() {
  const roles = await api('GET', '/roles?filter[name][_eq]=erleah-attendee&fields=id');
  if (!roles || roles.length !== 1) throw new Error('no erleah-attendee role: run erleah-agent directus setup first');
  const name = `browser-attendee-${Date.now()}`;
  const token = randomBytes(24).toString('hex');
  await api('POST', '/users', { email: `${name}@example.com`, first_name: 'Browser', token, status: 'active', role: roles[0].id });
  return token;
}

// ask types a question, submits it and follows its reply in the page: the
// times (ms after the submit) at which the first thinking_output record
// (usually the acknowledgment), the first thinking note proper and the
// completed answer appeared in the DOM.
async function ask(page, question) {
  await page.evaluate(() => {
    const n = document.querySelectorAll('li.erl-q').length;
    const t = (window.__t = { sent: 0 });
    const log = document.querySelector('.erl-log');
    document.querySelector('.erl-ask').addEventListener('submit', () => { t.sent = performance.now(); }, { capture: true, once: true });
    const look = () => {
      const q = document.querySelectorAll('li.erl-q')[n];
      if (!q || !t.sent) return;
      const r = log.querySelector(`li.erl-a[data-reply-to="${q.dataset.id}"]`);
      if (!r) return;
      const now = performance.now() - t.sent;
      const status = r.querySelector('.erl-answer').dataset.status;
      if (t.first === undefined && r.querySelector('.erl-note')) t.first = now;
      if (t.note === undefined && r.querySelector('.erl-note:not(.erl-ack)')) { t.note = now; t.statusAtNote = status; }
      if (t.done === undefined && (status === 'completed' || status === 'failed')) { t.done = now; t.status = status; t.reply = r.dataset.id; }
    };
    new MutationObserver(look).observe(log, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.getByLabel('Your question', { exact: true }).fill(question);
  await page.getByRole('button', { name: 'Ask' }).click();
  await page.waitForFunction(() => window.__t && window.__t.done !== undefined, null, { timeout: ANSWER_TIMEOUT, polling: 50 });
  return page.evaluate(() => window.__t);
}

const p50 = (xs) => {
  const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const token = await attendee();
const dataDir = mkdtempSync(join(tmpdir(), 'erleah-chromium-'));
const ctx = await chromium.launchPersistentContext(dataDir, {
  executablePath: CHROMIUM,
  headless: true,
  viewport: { width: 800, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run'],
});
let failed = false;
try {
  const page = ctx.pages()[0] || (await ctx.newPage());
  page.on('console', (m) => { if (m.type() === 'error') log('page console:', m.text()); });
  page.on('pageerror', (e) => log('page error:', e.message));
  const url = `${AGENT}/widget/?directus=${encodeURIComponent(D)}&token=${encodeURIComponent(token)}`;
  await page.goto(url);
  await page.waitForSelector('.erl[data-ready=true]', { timeout: 20_000 });
  await page.getByLabel('Conference', { exact: true }).selectOption(CONF);

  // 1. A question whose first search fails: a thinking note before the answer.
  const question = 'any good MLOps talks?';
  const t = await ask(page, question);
  log('timings (ms after submit):', JSON.stringify({ ...t, sent: undefined }));
  check(t.status === 'completed', `the answer completed (status ${t.status})`);
  check(t.note !== undefined && t.note < t.done && t.statusAtNote !== 'completed',
    `a thinking note was visible before the answer completed (note at ${t.note?.toFixed(0)} ms, answer at ${t.done.toFixed(0)} ms)`);
  const reply = page.locator(`li.erl-a[data-id="${t.reply}"]`);
  const note = reply.locator('.erl-note:not(.erl-ack)').first();
  check(await note.isVisible(), `the note is shown: "${await note.textContent()}"`);
  check(await reply.locator('.erl-thinking[aria-live=polite]').count() === 1, 'the thinking notes are in an aria-live="polite" region');
  const answer = (await reply.locator('.erl-answer').textContent()).trim();
  check(answer.length > 20, `the answer text is shown (${answer.length} characters)`);
  await page.waitForSelector(`li.erl-a[data-id="${t.reply}"][data-cards=done]`, { timeout: 10_000 });
  const cards = reply.locator('.erl-card');
  const nCards = await cards.count();
  check(nCards >= 1, `${nCards} citation card(s) rendered`);
  const first = cards.first();
  const cardText = (await first.innerText()).replace(/\s+/g, ' ');
  if ((await first.getAttribute('data-collection')) === 'sessions') {
    check(/Room .+ · .+ · /.test(cardText) && /\d\d:\d\d/.test(cardText), `a session card shows time, room, track and format: "${cardText}"`);
  } else {
    log('first card:', cardText);
  }
  // the whole exchange in the picture: no inner scrolling
  await page.addStyleTag({ content: '.erl-log{max-height:none!important}' });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  log('screenshot:', SCREENSHOT);

  // 2. A reload shows the conversation again (its id is in localStorage).
  await page.reload();
  await page.waitForSelector('.erl[data-ready=true]', { timeout: 20_000 });
  const q = page.locator('li.erl-q').first();
  check((await q.textContent()).includes(question), 'after a reload the question is shown');
  const again = page.locator(`li.erl-a[data-id="${t.reply}"] .erl-answer`);
  check((await again.textContent()).trim() === answer && (await again.getAttribute('data-status')) === 'completed',
    'after a reload the answer is shown');
  await page.waitForSelector(`li.erl-a[data-id="${t.reply}"][data-cards=done]`, { timeout: 10_000 });
  check(await page.locator(`li.erl-a[data-id="${t.reply}"] .erl-card`).count() === nCards, 'after a reload the cards are shown');
  check(await page.getByLabel('Conference', { exact: true }).inputValue() === CONF, 'after a reload the conference is selected');

  // 3. 360 px wide: nothing overflows, the question field and button work.
  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  check(overflow <= 0, `no horizontal scrolling at 360 px (overflow ${overflow} px)`);
  await page.getByLabel('Your question', { exact: true }).focus();
  await page.keyboard.press('Tab');
  check(await page.evaluate(() => document.activeElement && document.activeElement.textContent === 'Ask'), 'Tab moves from the question to the Ask button');

  // 4. Embedded with one script tag in a page of another origin (a server
  // of this test's own on another loopback port).
  const site = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><meta name=viewport content="width=device-width"><h1>Some conference site</h1>` +
      `<script src="${AGENT}/widget/widget.js" data-directus-url="${D}" data-token="${token}"></script>`);
  });
  await new Promise((ok) => site.listen(0, '127.0.0.1', ok));
  const embed = page.context();
  const other = await embed.newPage();
  other.on('console', (m) => { if (m.type() === 'error') log('embedding page console:', m.text()); });
  await other.goto(`http://127.0.0.1:${site.address().port}/`);
  await other.waitForSelector('.erl[data-ready=true]', { timeout: 20_000 });
  check(await other.locator(`select option[value="${CONF}"]`).count() === 1, 'embedded with one script tag on another origin, it loads the conferences');
  await other.close();
  site.close();

  // 5. Latency: question sent → first thinking record visible, → answer complete.
  await page.setViewportSize({ width: 800, height: 900 });
  const questions = ['What is on about data quality on Tuesday?', 'Which exhibitors do vector databases?',
    'Who talks about GPU scheduling?', 'Where can I learn about LLM evaluation?', 'Is there a session on data contracts?',
    'Which speakers work on recommender systems?', 'any good MLOps talks?', 'What happens in the Foyer on the first morning?',
    'Any workshops on feature stores?', 'Who exhibits model serving platforms?', 'What is there on responsible AI?',
    'Sessions about streaming data pipelines?'];
  const runs = [];
  for (let i = 0; i < N; i++) {
    const r = await ask(page, questions[i % questions.length]);
    runs.push(r);
    log(`q${i + 1} "${questions[i % questions.length]}": first record ${r.first?.toFixed(0)} ms, note ${r.note?.toFixed(0) ?? '-'} ms, done ${r.done.toFixed(0)} ms (${r.status})`);
  }
  const notes = runs.filter((r) => r.note !== undefined);
  const summary = {
    questions: runs.length,
    p50_first_thinking_ms: Math.round(p50(runs.map((r) => r.first))),
    with_first_record: runs.filter((r) => r.first !== undefined).length,
    p50_first_note_ms: notes.length ? Math.round(p50(notes.map((r) => r.note))) : null,
    with_note: notes.length,
    p50_answer_complete_ms: Math.round(p50(runs.map((r) => r.done))),
    completed: runs.filter((r) => r.status === 'completed').length,
  };
  const kinds = await page.evaluate(() => {
    const n = {};
    for (const c of document.querySelectorAll('.erl-card')) n[c.dataset.collection] = (n[c.dataset.collection] || 0) + 1;
    return n;
  });
  log('cards rendered by kind:', JSON.stringify(kinds));
  check(await page.locator('.erl-card h3:empty').count() === 0, 'every card has a title');
  for (const k of ['sessions', 'exhibitors', 'speakers']) {
    const c = page.locator(`.erl-card[data-collection=${k}]`).first();
    if (await c.count()) log(`a ${k} card:`, (await c.innerText()).replace(/\s+/g, ' '));
  }
  console.log(JSON.stringify(summary));
  check(summary.completed === runs.length, `all ${runs.length} timing questions answered`);
} catch (err) {
  failed = true;
  console.error('browser-test: FAIL:', err.message);
} finally {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
