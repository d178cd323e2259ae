// frontier-measure dashboard: the page. Plain JavaScript, no build step.
//
// One EventSource (/api/stream) keeps the whole picture: a snapshot first, then
// updates (changed attempts, new events, cumulative metrics) and the runner's
// status. A second one (/api/attempts/ID/live) follows the selected attempt:
// its terminal output, resource usage and lines changed. Rows are patched in
// place, never re-rendered wholesale, so a 1,000-attempt queue stays cheap.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  attempts: new Map(),   // id -> row
  columns: [],
  runs: [],
  status: { runner: { active: false }, jobs: [] },
  metrics: null,
  selected: null,
  clockSkew: 0,          // server time - browser time, seconds
  stream: null,
  live: null,
  tab: "terminal",
  termStream: "session",
  usage: [],             // recent container CPU samples (sparkline)
  filesTimer: null,
  catalog: null,
};
// Measurements the benchmark reads (bench/dashboard.py): when the first picture
// was on screen, and when each attempt's latest change was applied.
window.__fm = { firstRender: null, applied: {}, updates: 0 };

// ------------------------------------------------------------------ helpers

const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (v) => String(v ?? "").replace(/[&<>"']/g, (c) => ESC[c]);
const now = () => Date.now() / 1000 + state.clockSkew;
const num = (v, d = 0) => (v === null || v === undefined ? "–" : Number(v).toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d }));
const money = (v) => (v === null || v === undefined ? "–" : "$" + (Number(v) < 0.01 && Number(v) > 0 ? Number(v).toPrecision(2) : Number(v).toFixed(Number(v) < 1 ? 3 : 2)));
const pct = (v) => (v === null || v === undefined ? "–" : (100 * v).toFixed(1) + "%");
function bytes(v) {
  if (v === null || v === undefined) return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0; let x = Number(v);
  while (x >= 1024 && i < units.length - 1) { x /= 1024; i++; }
  return x.toFixed(i ? 1 : 0) + " " + units[i];
}
function duration(s) {
  if (s === null || s === undefined || !isFinite(s)) return "–";
  s = Math.max(0, s);
  if (s < 60) return s.toFixed(s < 10 ? 1 : 0) + " s";
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(Math.floor(s % 60)).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}
const parseTime = (iso) => (iso ? Date.parse(iso) / 1000 : null);

async function api(path, options = {}) {
  const opts = { credentials: "same-origin", ...options };
  if (opts.method && opts.method !== "GET") {
    // The server refuses changes without this header (no cross-site form can send it).
    opts.headers = { "X-FM-Request": "1", "Content-Type": "application/json", ...(opts.headers || {}) };
  }
  const r = await fetch(path, opts);
  const type = r.headers.get("content-type") || "";
  const body = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    const err = new Error(body && body.detail ? body.detail : `${r.status} ${r.statusText}`);
    err.body = body;
    err.status = r.status;
    throw err;
  }
  return body;
}

// What the queue shows as an attempt's status: its outcome once finished;
// "interrupted" for one a stopped runner recorded so, or left running by a runner
// that is no longer there; "lock wait" while its gate waits for the measurement lock.
function statusOf(a) {
  if (a.state === "finished") return a.outcome || "finished";
  if (a.state === "running" && !state.status.runner.active) return "interrupted";
  if (a.state === "running" && a.stage === "lock-wait") return "lock wait";
  return a.state;
}
// What the status badge's tooltip says: the error, or the stage and its note.
function statusNote(a, st) {
  if (a.error) return a.error;
  if (a.state === "running" && a.stage === "lock-wait") return `waiting for the measurement lock, ${a.stage_note || "held by another process"}`;
  if (a.state === "running" && a.stage) return `running: ${a.stage}${a.stage_note ? " (" + a.stage_note + ")" : ""}`;
  return st;
}
// Only a running attempt's runtime moves: an interrupted one ran until the stop.
function runtimeOf(a) {
  if (a.state === "running" && state.status.runner.active) { const t = parseTime(a.started_at); return t ? now() - t : null; }
  if (a.state === "running") return null;
  if (a.wall_s !== null && a.wall_s !== undefined) return a.wall_s;
  const t0 = parseTime(a.started_at); const t1 = parseTime(a.finished_at);
  return t0 && t1 ? t1 - t0 : null;
}
const modelLabel = (a) => (a.model && a.model !== "-" ? `${a.agent} · ${a.model}` : a.agent);
const MODES = { descriptive: "descr." };
// Bundled tasks share one namespace; the queue shows the rest of the name.
const taskLabel = (a) => String(a.task || "").replace(/^frontier-measure\//, "");
function compact(v) {
  if (v === null || v === undefined) return "–";
  const x = Number(v);
  if (x >= 1e6) return (x / 1e6).toFixed(x >= 1e7 ? 0 : 1) + "M";
  if (x >= 1e4) return (x / 1e3).toFixed(x >= 1e5 ? 0 : 1) + "k";
  return x.toLocaleString("en-US");
}

// ------------------------------------------------------------------ the queue

function rowHTML(a) {
  const st = statusOf(a);
  const plus = a.state !== "finished" || !a.passed ? "" : a.passed_plus ? "" : a.passed_plus === null ? ' <span class="muted" title="gate+ has no verdict (no static checker)">+?</span>' : ' <span class="mark no" title="passed the gate, failed gate+ (static check or import test)">+✗</span>';
  const mark = a.state !== "finished" ? "" : (a.passed ? '<span class="mark ok" title="passed the gate">✓</span>' : '<span class="mark no" title="did not pass">✗</span>') + plus;
  const retry = a.state === "running" ? "" : '<button type="button" class="retry" title="retry: run this attempt again, alone" aria-label="retry">↻</button>';
  return `<td class="num">${a.id}</td><td title="${esc(a.task)} #${a.number}">${esc(taskLabel(a))} <span class="muted">#${a.number}</span></td>`
    + `<td title="${esc(modelLabel(a))}">${esc(modelLabel(a))}</td><td title="prompt mode ${esc(a.prompt_mode)}, regime ${esc(a.regime)}">${esc(MODES[a.prompt_mode] || a.prompt_mode)}<span class="muted"> ${esc(a.regime)}</span></td>`
    + `<td><span class="badge ${esc(st.replace(" ", "-"))}" title="${esc(statusNote(a, st))}">${esc(st)}</span></td>`
    + `<td class="num runtime">${duration(runtimeOf(a))}</td><td>${mark}</td><td>${retry}</td>`;
}

function matches(a) {
  const f = filters();
  if (f.state && statusOf(a) !== f.state) return false;
  if (f.agent && a.agent !== f.agent) return false;
  if (f.model && a.model !== f.model) return false;
  if (f.mode && a.prompt_mode !== f.mode) return false;
  if (f.regime && a.regime !== f.regime) return false;
  if (f.words.length) {
    const hay = `${a.task} ${a.agent} ${a.model} ${a.prompt_mode} ${a.regime}`.toLowerCase();
    for (const w of f.words) {
      if (/^#\d+$/.test(w) ? a.id !== Number(w.slice(1)) : !hay.includes(w)) return false;
    }
  }
  return true;
}
let filterCache = null;
function filters() {
  if (!filterCache) {
    const text = $("f-text").value.trim().toLowerCase();
    filterCache = { words: text ? text.split(/\s+/) : [], state: $("f-state").value,
      agent: $("f-agent").value, model: $("f-model").value, mode: $("f-mode").value, regime: $("f-regime").value };
  }
  return filterCache;
}

// The queue is virtual: only the rows in view (and a margin) are in the DOM, so
// the first picture and every update cost the same with 50 attempts or 5,000.
const ROW_H = 22;
const OVERSCAN = 12;
const queue = { order: [], stale: true, frame: null, after: [] };

function refilter() {
  queue.order = [...state.attempts.values()].filter(matches).map((a) => a.id).sort((x, y) => x - y);
  queue.stale = false;
}
// Redraw the rows in view at the next frame (many changes, one redraw);
// `then` runs after it, with the time the rows were on the page.
function redraw(then) {
  if (then) queue.after.push(then);
  if (queue.frame !== null) return;
  queue.frame = requestAnimationFrame(() => {
    queue.frame = null;
    drawRows();
    const t = Date.now();
    for (const f of queue.after.splice(0)) f(t);
  });
}
function drawRows() {
  if (queue.stale) refilter();
  const box = $("queue-scroll");
  const first = Math.max(0, Math.floor(box.scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(queue.order.length, Math.ceil((box.scrollTop + box.clientHeight) / ROW_H) + OVERSCAN);
  const html = ['<tr class="spacer" id="pad-top"></tr>'];
  for (let i = first; i < last; i++) {
    const a = state.attempts.get(queue.order[i]);
    html.push(`<tr data-id="${a.id}" data-state="${esc(statusOf(a))}"${a.id === state.selected ? ' class="selected"' : ""}>${rowHTML(a)}</tr>`);
  }
  html.push('<tr class="spacer" id="pad-bottom"></tr>');
  $("attempt-rows").innerHTML = html.join("");
  // Heights through the CSSOM: the content security policy allows no inline styles.
  $("pad-top").style.height = first * ROW_H + "px";
  $("pad-bottom").style.height = (queue.order.length - last) * ROW_H + "px";
  renderCounts();
}
function visibleRow(id) {
  return $("attempt-rows").querySelector(`tr[data-id="${id}"]`);
}

function renderAll() {
  queue.stale = true;
  refreshFilterOptions();
  redraw();
}

function applyFilters() {
  filterCache = null;
  queue.stale = true;
  $("queue-scroll").scrollTop = 0;
  redraw();
}

function refreshFilterOptions() {
  const sets = { "f-agent": new Set(), "f-model": new Set(), "f-mode": new Set(), "f-regime": new Set() };
  for (const a of state.attempts.values()) {
    sets["f-agent"].add(a.agent); sets["f-model"].add(a.model);
    sets["f-mode"].add(a.prompt_mode); sets["f-regime"].add(a.regime);
  }
  for (const [id, values] of Object.entries(sets)) {
    const sel = $(id);
    const have = new Set([...sel.options].map((o) => o.value));
    for (const v of [...values].sort()) {
      if (!have.has(v)) sel.add(new Option(v, v));
    }
  }
}

function renderCounts() {
  const by = {};
  for (const a of state.attempts.values()) { const s = statusOf(a); by[s] = (by[s] || 0) + 1; }
  const parts = Object.entries(by).sort().map(([k, v]) => `${v} ${k}`);
  const total = state.attempts.size;
  const shown = queue.order.length;
  $("queue-counts").textContent = `${shown === total ? total : `${shown} of ${total}`} · ${parts.join(" · ")}`;
  $("queue-empty").hidden = total > 0;
}

// ------------------------------------------------------------------ the stream

function connect() {
  if (state.stream) state.stream.close();
  const es = new EventSource("/api/stream");
  state.stream = es;
  es.addEventListener("open", () => setLink(true));
  es.addEventListener("error", () => setLink(false));
  es.addEventListener("snapshot", (e) => onSnapshot(JSON.parse(e.data)));
  es.addEventListener("update", (e) => onUpdate(JSON.parse(e.data)));
  es.addEventListener("status", (e) => onStatus(JSON.parse(e.data)));
}
function setLink(up) {
  const el = $("link");
  el.textContent = up ? "live" : "reconnecting";
  el.className = "pill " + (up ? "up" : "down");
}

// Attempts travel as lists in the order of the snapshot's columns.
function unpack(row) {
  const a = {};
  state.columns.forEach((c, i) => { a[c] = row[i]; });
  return a;
}

function onSnapshot(s) {
  state.clockSkew = s.now - Date.now() / 1000;
  state.columns = s.columns;
  state.attempts = new Map(s.attempts.map((r) => { const a = unpack(r); return [a.id, a]; }));
  state.runs = s.runs || [];
  state.status = s.status && s.status.runner ? s.status : state.status;
  renderRuns();
  renderAll();
  renderStatus();
  renderMetrics(s.metrics);
  $("events").replaceChildren();
  renderEvents(s.events || []);
  if (s.error) $("run-name").textContent = s.error;
  if (state.selected === null) {
    const fromHash = Number(new URLSearchParams(location.hash.slice(1)).get("a"));
    if (fromHash && state.attempts.has(fromHash)) select(fromHash);
  } else if (state.attempts.has(state.selected)) {
    renderSelected();
  }
  if (window.__fm.firstRender === null) {
    // Two frames: the first runs before the paint, the second after it.
    requestAnimationFrame(() => requestAnimationFrame(() => {
      window.__fm.firstRender = performance.now();
      performance.mark("fm-first-render");
      document.body.dataset.ready = "1";
    }));
  }
}

function onUpdate(u) {
  state.clockSkew = u.now - Date.now() / 1000;
  if (u.runs) { state.runs = u.runs; renderRuns(); }
  let fresh = false;
  for (const id of u.removed || []) state.attempts.delete(id);
  const changed = (u.attempts || []).map(unpack);
  let moved = false;  // the selected attempt changed state
  for (const a of changed) {
    const before = state.attempts.get(a.id);
    if (!before) fresh = true;
    else if (a.id === state.selected && (before.state !== a.state || before.generation !== a.generation)) moved = true;
    state.attempts.set(a.id, a);
  }
  if (fresh) refreshFilterOptions();
  // A change of status may move an attempt in or out of the filter.
  if (changed.length || (u.removed || []).length) queue.stale = true;
  if (u.metrics) renderMetrics(u.metrics);
  renderEvents(u.events || []);
  if (state.selected !== null && changed.some((a) => a.id === state.selected)) renderSelected();
  if (moved) { renderEnvironment(); loadTab(); }
  window.__fm.updates++;
  redraw((t) => { for (const a of changed) window.__fm.applied[a.id] = t; });
}

function onStatus(s) {
  const wasActive = state.status.runner.active;
  state.status = s;
  renderStatus();
  if (wasActive !== s.runner.active) {
    // "interrupted" depends on whether a runner is there.
    queue.stale = true;
    redraw();
    renderSelected();
  }
}

function renderRuns() {
  const names = state.runs.map((r) => r.name);
  $("run-name").textContent = names.length ? `run: ${names.join(", ")}` : "no run yet";
}

function renderStatus() {
  const r = state.status.runner || {};
  const el = $("runner");
  if (state.status.stopping) { el.textContent = "stopping"; el.className = "pill stopping"; }
  else if (r.active) { el.textContent = `runner ${r.pid ?? ""}${r.ours ? " (launched here)" : ""}`; el.className = "pill active"; }
  else { el.textContent = "idle"; el.className = "pill idle"; }
  $("stop").disabled = !(r.active || (state.status.jobs || []).some((j) => j.state === "queued"));
  const jobs = $("jobs");
  jobs.replaceChildren(...(state.status.jobs || []).slice().reverse().map((j) => {
    const li = document.createElement("li");
    const what = j.kind === "retry" ? `retry of #${j.attempt}` : "run";
    li.innerHTML = `<b>job ${j.id}</b> ${esc(what)}: <span class="badge ${j.state === "done" ? "passed" : j.state === "failed" ? "failed" : j.state === "running" ? "running" : "pending"}">${esc(j.state)}</span>`
      + (j.log ? ` <a href="/api/jobs/${j.id}/log" target="_blank" rel="noopener">log</a>` : "")
      + (j.state === "queued" ? ` <button type="button" data-cancel="${j.id}">cancel</button>` : "")
      + (j.message ? `<pre>${esc(j.message)}</pre>` : "");
    return li;
  }));
}

function renderEvents(events) {
  const ul = $("events");
  for (const e of events) {
    if (e.kind === "planned" || e.kind === "started" || e.kind === "finished" || e.kind === "retry"
        || e.kind === "interrupted" || e.kind.startsWith("runner")) {
      const li = document.createElement("li");
      const what = e.attempt_id ? `#${e.attempt_id} ${e.kind}` : e.kind;
      const extra = e.data && e.data.outcome ? ` (${e.data.outcome})` : e.data && e.data.added ? ` (${e.data.added} attempts)` : "";
      li.innerHTML = `<span class="at">${esc((e.at || "").slice(11, 19))}</span> ${esc(what + extra)}`;
      ul.prepend(li);
    }
  }
  while (ul.children.length > 40) ul.lastElementChild.remove();
}

// ------------------------------------------------------------------ cumulative metrics

function renderMetrics(m) {
  if (!m) return;
  state.metrics = m;
  const t = m.totals;
  $("totals").innerHTML = [
    ["attempts", num(t.attempts)], ["running", num(t.running)], ["interrupted", num(t.interrupted ?? 0)], ["finished", num(t.finished)],
    ["passed", num(t.passed)], ["passed gate+", num(t.passed_plus ?? 0)], ["spent", money(t.cost)], ["CE $/success", t.ce === null ? "n/a" : money(t.ce)],
  ].map(([k, v]) => `<div class="card"><span class="label">${k}</span><span class="value">${v}</span></div>`).join("");
  $("funnel").innerHTML = bars(m.funnel);
  $("perf-funnel").innerHTML = m.performance_funnel[0][1] ? bars(m.performance_funnel) : "";
  $("configs").tBodies[0].innerHTML = m.configs.map((c) =>
    `<tr><td title="${esc(c.label)}">${esc(c.label)}</td><td class="num">${pct(c.pr_task)}</td><td class="num">${c.solved}/${c.tasks}</td>`
    + `<td class="num">${pct(c.pr_task_plus)}</td><td class="num">${c.solved_plus}/${c.tasks}</td>`
    + `<td class="num">${c.ce === null ? "n/a" : Number(c.ce).toFixed(4)}</td><td class="num">${c.ce_plus === null ? "n/a" : Number(c.ce_plus).toFixed(4)}</td>`
    + `<td class="num">${Number(c.cost).toFixed(4)}</td><td class="num">${c.cost_per_attempt === null ? "n/a" : Number(c.cost_per_attempt).toFixed(4)}</td><td>${esc(c.usage_source || "n/a")}</td></tr>`).join("")
    || '<tr><td colspan="10" class="muted">no finished attempt yet</td></tr>';
  setBarWidths();
}
function bars(stages) {
  const base = Math.max(stages[0][1], 1);
  return stages.map(([label, n]) =>
    `<div class="bar-row"><span>${esc(label)}</span><span class="track"><span class="fill" data-width="${(100 * n / base).toFixed(1)}"></span></span><span class="num">${n}</span></div>`).join("");
}
function setBarWidths() {
  // Widths through the CSSOM: the content security policy allows no inline styles.
  for (const el of document.querySelectorAll("[data-width]")) el.style.width = el.dataset.width + "%";
}

// ------------------------------------------------------------------ the selected attempt

function select(id) {
  if (state.selected === id) return;
  const old = visibleRow(state.selected);
  if (old) old.classList.remove("selected");
  state.selected = id;
  const tr = visibleRow(id);
  if (tr) tr.classList.add("selected");
  history.replaceState(null, "", `#a=${id}`);
  state.usage = [];
  $("m-lines").textContent = "–";  // a running attempt's count comes with its live stream
  $("m-files").textContent = "";
  $("term-session").textContent = "";
  $("term-process").textContent = "";
  // The session (from the gateway) is the view for an agent with a model; one
  // without a model (nop, oracle, replay) has only its process output.
  const chosen = state.attempts.get(id);
  showStream(chosen && chosen.model === "-" ? "process" : "session");
  renderSelected();
  renderEnvironment();
  followAttempt(id);
  loadTab();
}

function renderSelected() {
  const a = state.attempts.get(state.selected);
  if (!a) return;
  $("sel-title").textContent = `#${a.id} ${a.task}`;
  const st = statusOf(a);
  $("sel-status").innerHTML = `<span class="badge ${esc(st)}">${esc(st)}</span>`;
  $("sel-sub").textContent = `${modelLabel(a)} · prompt ${a.prompt_mode} · regime ${a.regime} · attempt ${a.number} · generation ${a.generation}`
    + (a.error && a.state === "finished" && !a.passed ? ` · ${a.error}` : "");
  $("m-tokens").textContent = `${compact(a.tokens_in)} / ${compact(a.tokens_out)}`;
  $("m-tokens").title = `${num(a.tokens_in)} in, ${num(a.tokens_out)} out`;
  $("m-cached").textContent = a.tokens_cached ? `${compact(a.tokens_cached)} cached` : "";
  $("m-requests").textContent = num(a.requests);
  $("m-cost").textContent = money(a.cost);
  $("m-steps").textContent = num(a.steps);
  if (a.state === "finished" || a.lines_added !== null) {
    $("m-lines").textContent = a.lines_added === null || a.lines_added === undefined ? "–" : `+${num(a.lines_added)} −${num(a.lines_removed)}`;
    $("m-files").textContent = a.files_changed === null || a.files_changed === undefined ? "" : filesLabel(a.files_changed);
  }
  $("m-runtime").textContent = duration(runtimeOf(a));
}

function filesLabel(n) {
  return `${num(n)} file${n === 1 ? "" : "s"}`;
}

function followAttempt(id) {
  if (state.live) state.live.close();
  const es = new EventSource(`/api/attempts/${id}/live`);
  state.live = es;
  es.addEventListener("terminal", (e) => {
    const d = JSON.parse(e.data);
    const term = $(d.stream === "session" ? "term-session" : "term-process");
    const text = cleanTerminal(d.text);
    if (d.reset) term.textContent = (d.clipped ? `… (the start: /api/attempts/${id}/terminal)\n` : "") + text;
    else term.append(text);
    if ($("follow").checked) term.scrollTop = term.scrollHeight;
  });
  es.addEventListener("usage", (e) => renderUsage(JSON.parse(e.data)));
  es.addEventListener("lines", (e) => {
    const d = JSON.parse(e.data);
    $("m-lines").textContent = `+${num(d.lines_added)} −${num(d.lines_removed)}`;
    $("m-files").textContent = filesLabel(d.files_changed);
  });
}

function showStream(name) {
  state.termStream = name;
  for (const b of document.querySelectorAll("[data-stream]")) b.setAttribute("aria-pressed", String(b.dataset.stream === name));
  $("term-session").hidden = name !== "session";
  $("term-process").hidden = name !== "process";
  const term = $(`term-${name}`);
  if ($("follow").checked) term.scrollTop = term.scrollHeight;
}

// Terminal output as text: colour and cursor sequences dropped, a carriage
// return rewinds the line (progress bars), backspaces erase.
function cleanTerminal(text) {
  // eslint-disable-next-line no-control-regex
  text = text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "").replace(/\x1b[@-Z\\-_]/g, "");
  if (text.includes("\r")) text = text.split("\n").map((l) => { const parts = l.split("\r"); return parts[parts.length - 1] || parts[parts.length - 2] || ""; }).join("\n");
  return text;
}

// ------------------------------------------------------------------ environment (right)

function meter(label, used, limit, fmt) {
  const share = limit ? Math.min(1, used / limit) : null;
  const cls = share === null ? "" : share > 0.9 ? "full" : share > 0.7 ? "warn" : "";
  const right = limit ? `${fmt(used)} / ${fmt(limit)}` : `${fmt(used)} (no limit)`;
  return `<div class="meter"><div class="meter-label"><span>${esc(label)}</span><span>${esc(right)}</span></div>`
    + `<div class="track"><div class="fill ${cls}" data-width="${share === null ? 0 : (100 * share).toFixed(1)}"></div></div></div>`;
}

// A finished or pending attempt has no live usage: say so, and what it ran under.
async function renderEnvironment() {
  const id = state.selected;
  const a = state.attempts.get(id);
  if (!a || a.state === "running") {
    $("env").innerHTML = '<p class="muted">waiting for a sample…</p>';
    return;
  }
  $("env").innerHTML = `<p class="muted">#${id} is ${esc(statusOf(a))}: no live usage.</p>`;
  try {
    const c = await api(`/api/attempts/${id}/configuration`);
    if (state.selected !== id) return;
    const r = c.run || {};
    $("env").innerHTML = `<p class="muted">#${id} is ${esc(statusOf(a))}: no live usage. It ran under:</p>`
      + `<dl class="kv"><dt>isolation</dt><dd>${esc(r.isolation || "docker")}</dd><dt>CPUs</dt><dd>${esc(r.cpus ?? "no limit")}</dd>`
      + `<dt>memory</dt><dd>${esc(r.memory_mb ?? 4096)} MiB</dd><dt>agent timeout</dt><dd>${esc(r.timeout_s ?? 1800)} s</dd></dl>`;
  } catch (err) { /* the note above stands */ }
}

function renderUsage(s) {
  const c = s.container;
  const p = s.session;
  const parts = [];
  if (c && c.error) parts.push(`<p class="muted">container: ${esc(c.error)}</p>`);
  else if (c) {
    if (c.cpu_percent !== null && c.cpu_percent !== undefined) state.usage.push(c.cpu_percent);
    if (state.usage.length > 60) state.usage.shift();
    const cpus = c.limits.cpus;
    parts.push(`<h3>Container ${esc(c.id)}</h3><dl class="kv"><dt>image</dt><dd>${esc(c.image)}</dd><dt>limits</dt>`
      + `<dd>${cpus ? cpus + " CPUs" : "no CPU limit"} · ${c.limits.memory ? bytes(c.limits.memory) : "no memory limit"} · ${c.limits.pids ?? "no"} pids</dd><dt>read from</dt><dd>${esc(c.source)}</dd></dl>`
      // Without a CPU limit the container may use every host CPU: the bar is out of those.
      + meter(cpus ? "CPU" : `CPU (of ${s.host_cpus} host CPUs)`, c.cpu_percent ?? 0, (cpus || s.host_cpus) * 100, (v) => v.toFixed(0) + "%")
      + spark(state.usage)
      + meter("memory", c.memory ?? 0, c.limits.memory, bytes)
      + (c.memory_peak ? `<div class="muted small">peak ${bytes(c.memory_peak)}</div>` : "")
      + meter("pids", c.pids ?? 0, c.limits.pids, (v) => String(v)));
  } else {
    parts.push('<p class="muted">no container (isolation "copy", or not started yet)</p>');
  }
  if (p) {
    parts.push(`<h3>Agent processes (host)</h3><dl class="kv"><dt>session</dt><dd>${p.pid} · ${p.processes} processes</dd>`
      + `<dt>CPU</dt><dd>${p.cpu_percent === null || p.cpu_percent === undefined ? "–" : p.cpu_percent.toFixed(0) + "%"}</dd><dt>memory (RSS)</dt><dd>${bytes(p.memory)}</dd></dl>`);
  }
  $("env").innerHTML = parts.join("");
  $("env-when").textContent = new Date(s.at * 1000).toLocaleTimeString();
  setBarWidths();
}
function spark(values) {
  if (values.length < 2) return "";
  const max = Math.max(100, ...values);
  const pts = values.map((v, i) => `${(i / (values.length - 1) * 100).toFixed(1)},${(28 - v / max * 26).toFixed(1)}`).join(" ");
  return `<svg class="spark" viewBox="0 0 100 28" preserveAspectRatio="none" aria-label="CPU, last minute"><polyline points="${pts}"/></svg>`;
}

// ------------------------------------------------------------------ tabs

function showTab(name) {
  state.tab = name;
  for (const b of document.querySelectorAll("#tabs button")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  for (const p of document.querySelectorAll(".pane")) p.hidden = p.id !== `pane-${name}`;
  loadTab();
}

async function loadTab() {
  clearTimeout(state.filesTimer);
  const id = state.selected;
  if (id === null) return;
  try {
    if (state.tab === "files") await loadFiles(id);
    else if (state.tab === "config") await loadConfig(id);
    else if (state.tab === "verify") await loadVerify(id);
  } catch (err) {
    const pane = { files: "diff", config: "config", verify: "verify" }[state.tab];
    if (pane) $(pane).textContent = `could not load: ${err.message}`;
  }
}

function diffHTML(patch) {
  return patch.split("\n").map((l) => {
    const cls = l.startsWith("diff --git") ? "head" : l.startsWith("@@") ? "hunk" : l.startsWith("+") && !l.startsWith("+++") ? "add" : l.startsWith("-") && !l.startsWith("---") ? "del" : "";
    return cls ? `<span class="${cls}">${esc(l)}</span>` : esc(l) + "\n";
  }).join("");
}

async function loadFiles(id) {
  const w = await api(`/api/attempts/${id}/workspace`);
  if (state.selected !== id) return;
  const where = { live: "live checkout", candidate: "the candidate as judged", pristine: "the pristine workspace (changes from the patch)", none: "no workspace", gone: "the checkout went away" }[w.source] || w.source;
  $("files-source").textContent = `${where} · ${w.more_files ? `${num(w.files.length)}+ files` : filesLabel(w.files.length)} · ${Object.keys(w.changes).length} changed`;
  const changed = w.changes;
  const deleted = Object.keys(changed).filter((p) => changed[p] === "deleted" && !w.files.includes(p));
  $("tree").innerHTML = [...w.files, ...deleted].sort().map((p) =>
    `<li class="${esc(changed[p] || "")}" data-path="${esc(p)}" title="${esc(changed[p] || "")}">${esc(p)}</li>`).join("");
  $("diff").innerHTML = w.patch ? diffHTML(w.patch) + (w.patch_clipped ? "\n… (clipped)" : "") : '<span class="muted">no changes</span>';
  const a = state.attempts.get(id);
  if (a && a.state === "running" && state.tab === "files") state.filesTimer = setTimeout(() => loadTab(), 5000);
}

async function openFile(path) {
  const f = await api(`/api/attempts/${state.selected}/file?path=${encodeURIComponent(path)}`);
  $("diff").textContent = f.binary ? `${path}: binary file` : f.text + (f.clipped ? "\n… (clipped)" : "");
}

function kv(obj) {
  const rows = Object.entries(obj || {}).map(([k, v]) =>
    `<dt>${esc(k)}</dt><dd>${esc(typeof v === "object" && v !== null ? JSON.stringify(v) : v)}</dd>`);
  return rows.length ? `<dl class="kv">${rows.join("")}</dl>` : '<p class="muted">–</p>';
}

async function loadConfig(id) {
  const c = await api(`/api/attempts/${id}/configuration`);
  if (state.selected !== id) return;
  $("config").innerHTML = `<h3>Prompt mode: ${esc(c.prompt_mode)}</h3><pre class="block">${esc(c.prompt || "(no prompt found)")}</pre>`
    + `<h3>Agent</h3>${kv(c.agent)}<h3>Model</h3>${kv(c.model)}${Object.keys(c.endpoint || {}).length ? "<h3>Endpoint</h3>" + kv(c.endpoint) : ""}`
    + `<h3>Run</h3>${kv(c.run)}<h3>Attempt (database row)</h3>${kv(c.attempt)}`
    + `<h3>Spec</h3><p class="muted">${esc(c.spec_path || "")}</p><pre class="block">${esc(c.spec)}</pre>`;
}

function mark(v) {
  return v === null || v === undefined ? '<span class="muted">–</span>' : v ? '<span class="mark ok">✓</span>' : '<span class="mark no">✗</span>';
}

async function loadVerify(id) {
  const v = await api(`/api/attempts/${id}/verification`);
  if (state.selected !== id) return;
  const parts = [];
  const g = v.gate || {};
  if (Object.keys(g).length) {
    parts.push(`<h3>Gate ${mark(g.passed)} · gate+ ${g.passed_plus === undefined ? "–" : mark(g.passed_plus)}</h3>${g.error ? `<p class="problems">${esc(g.error)}</p>` : ""}`
      + `<dl class="kv"><dt>speedup</dt><dd>${g.speedup === null || g.speedup === undefined ? "–" : Number(g.speedup).toFixed(2) + "×"}</dd><dt>CodeBLEU</dt><dd>${g.codebleu === null || g.codebleu === undefined ? "–" : Number(g.codebleu).toFixed(3)}</dd><dt>lock wait</dt><dd>${g.lock_wait_s === null || g.lock_wait_s === undefined ? "–" : Number(g.lock_wait_s).toFixed(1) + " s"}</dd></dl>`);
  }
  if (v.checks.length) {
    parts.push(`<h3>Sub-checks</h3><table class="checks"><thead><tr><th>check</th><th>kind</th><th></th><th>output</th></tr></thead><tbody>`
      + v.checks.map((c) => `<tr><td>${esc(c.name)}</td><td>${esc(c.kind)}</td><td>${mark(c.passed)}</td><td><pre>${esc(c.output)}</pre></td></tr>`).join("")
      + "</tbody></table>");
  } else {
    parts.push('<p class="muted">No gate yet: the attempt has not been judged.</p>');
  }
  for (const r of v.results) {
    const f = r.functional; const p = r.performance;
    parts.push(`<h3>Evaluation ${esc(r.file)}: strict success ${mark(r.strict_success)}</h3>`
      + (r.failure ? `<p class="problems">${esc(r.failure.stage)}: ${esc(r.failure.rule)}: ${esc(r.failure.reason)}</p>` : ""));
    if (f.ran) {
      const failed = f.items.filter((i) => !i.passed);
      parts.push(`<p>Functional: ${esc(f.summary)}</p>` + (failed.length ? "<table class=\"checks\"><thead><tr><th>item</th><th>diff</th></tr></thead><tbody>"
        + failed.map((i) => `<tr><td>${esc(i.id)}</td><td><pre>${esc(i.missing ? "missing" : (i.diff || []).join("\n"))}</pre></td></tr>`).join("")
        + "</tbody></table>" : ""));
    }
    if (p.ran) {
      parts.push(`<p>Performance (${esc(p.cost)}, threshold ${p.threshold}×): worst input ${esc(p.worst_input)}, speedup ${p.speedup === null ? "–" : Number(p.speedup).toFixed(2) + "×"}, ${esc(p.verdict)}</p>`
        + "<table class=\"checks\"><thead><tr><th>input</th><th>size</th><th class=\"num\">speedup</th><th>interval</th><th>verdict</th><th>≥ thr.</th></tr></thead><tbody>"
        + p.inputs.map((i) => `<tr><td>${esc(i.id)}</td><td>${esc(i.size)}</td><td class="num">${i.speedup === null ? "–" : Number(i.speedup).toFixed(2) + "×"}</td>`
          + `<td>${i.ci_low === null || i.ci_low === undefined ? "–" : `${Number(i.ci_low).toFixed(2)}–${Number(i.ci_high).toFixed(2)}`}</td><td>${esc(i.error || i.verdict)}</td><td>${mark(i.meets_threshold)}</td></tr>`).join("")
        + "</tbody></table>");
    }
  }
  if (v.figure) parts.push(`<img class="figure" alt="per-input speedups with their intervals" src="/api/attempts/${id}/speedups.svg?g=${state.attempts.get(id)?.generation}">`);
  $("verify").innerHTML = parts.join("");
}

// ------------------------------------------------------------------ actions

async function retry(id) {
  try {
    const r = await api(`/api/attempts/${id}/retry`, { method: "POST" });
    flash(`retry of #${id}: job ${r.job.id} ${r.job.state}`);
  } catch (err) { flash(`retry of #${id}: ${err.message}`); }
}
async function stopRun() {
  if (!confirm("Stop the runner? Running attempts are cancelled and run again from scratch next time.")) return;
  try { await api("/api/stop", { method: "POST" }); } catch (err) { flash(`stop: ${err.message}`); }
}
function flash(text) {
  const li = document.createElement("li");
  li.innerHTML = `<span class="at">${new Date().toLocaleTimeString().slice(0, 8)}</span> ${esc(text)}`;
  $("events").prepend(li);
}

function choices(container, name, items, checked, label = (x) => x) {
  $(container).innerHTML = items.map((item) => {
    if (item.group) return `<span class="group">${esc(item.group)}</span>`;
    const value = item.value ?? item;
    return `<label><input type="checkbox" name="${name}" value="${esc(value)}" ${checked.includes(value) ? "checked" : ""}> ${esc(label(item))}</label>`;
  }).join("");
}
const checkedValues = (name) => [...document.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);

async function openLaunch() {
  const cat = await api("/api/catalog");
  state.catalog = cat;
  $("launch-run").textContent = cat.run ? `Into run "${cat.run}" (this database's run: new attempts are added, pending ones run).` : "A new run in this database.";
  const items = []; let group = null;
  for (const t of cat.tasks) {
    const g = t.kind === "performance" ? `${t.scale} scale` : t.kind;
    if (g !== group) { items.push({ group: g }); group = g; }
    items.push({ value: t.path, name: t.name.replace(/^frontier-measure\//, "") });
  }
  choices("l-tasks", "task", items, [], (t) => t.name);
  $("l-refactorbench").disabled = !cat.refactorbench;
  $("l-refactorbench").placeholder = cat.refactorbench ? "none" : "no RefactorBench snapshot here";
  choices("l-agents", "agent", Object.keys(cat.agents), []);
  choices("l-models", "model", Object.keys(cat.models), []);
  choices("l-modes", "mode", cat.prompt_modes, cat.defaults.prompt_modes);
  choices("l-regimes", "regime", cat.regimes, cat.defaults.regimes);
  $("l-isolation").innerHTML = cat.isolations.map((i) => `<option ${i === cat.defaults.isolation ? "selected" : ""}>${esc(i)}</option>`).join("");
  $("launch-problems").replaceChildren();
  $("launch").showModal();
}

async function submitLaunch(ev) {
  ev.preventDefault();
  const form = {
    tasks: checkedValues("task"), refactorbench: $("l-refactorbench").value,
    agents: checkedValues("agent"), models: checkedValues("model"),
    prompt_modes: checkedValues("mode"), regimes: checkedValues("regime"),
    attempts: Number($("l-attempts").value), concurrency: Number($("l-concurrency").value),
    timeout_s: Number($("l-timeout").value), isolation: $("l-isolation").value,
  };
  try {
    const r = await api("/api/launch", { method: "POST", body: JSON.stringify(form) });
    $("launch").close();
    flash(`launched: job ${r.job.id} (${r.job.state})`);
  } catch (err) {
    const problems = (err.body && err.body.problems) || [err.message];
    $("launch-problems").innerHTML = problems.map((p) => `<li>${esc(p)}</li>`).join("");
  }
}

// ------------------------------------------------------------------ wiring

function tick() {
  // Runtimes of running attempts move by themselves.
  for (const tr of $("attempt-rows").querySelectorAll('tr[data-state="running"], tr[data-state="lock wait"]')) {
    const a = state.attempts.get(Number(tr.dataset.id));
    const cell = a && tr.querySelector(".runtime");
    if (cell) cell.textContent = duration(runtimeOf(a));
  }
  const a = state.attempts.get(state.selected);
  if (a && a.state === "running") $("m-runtime").textContent = duration(runtimeOf(a));
}

function init() {
  $("attempt-rows").addEventListener("click", (ev) => {
    const tr = ev.target.closest("tr");
    if (!tr) return;
    const id = Number(tr.dataset.id);
    if (ev.target.closest("button.retry")) { ev.stopPropagation(); retry(id); return; }
    select(id);
  });
  for (const id of ["f-state", "f-agent", "f-model", "f-mode", "f-regime"]) $(id).addEventListener("change", applyFilters);
  $("f-text").addEventListener("input", applyFilters);
  $("queue-scroll").addEventListener("scroll", () => redraw(), { passive: true });
  window.addEventListener("resize", () => redraw());
  $("tabs").addEventListener("click", (ev) => { const b = ev.target.closest("button[data-tab]"); if (b) showTab(b.dataset.tab); });
  $("tree").addEventListener("click", (ev) => { const li = ev.target.closest("li[data-path]"); if (li) openFile(li.dataset.path); });
  $("files-refresh").addEventListener("click", () => loadTab());
  for (const b of document.querySelectorAll("[data-stream]")) b.addEventListener("click", () => showStream(b.dataset.stream));
  $("stop").addEventListener("click", stopRun);
  $("launch-open").addEventListener("click", () => openLaunch().catch((err) => flash(`launch: ${err.message}`)));
  $("launch-cancel").addEventListener("click", () => $("launch").close());
  $("launch-form").addEventListener("submit", submitLaunch);
  $("jobs").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-cancel]");
    if (b) api(`/api/jobs/${b.dataset.cancel}/cancel`, { method: "POST" }).catch((err) => flash(err.message));
  });
  $("export-csv").addEventListener("change", (ev) => {
    const table = ev.target.value;
    ev.target.value = "";
    if (!table) return;
    const a = document.createElement("a");
    a.href = `/api/export/${table}.csv`;
    a.download = `${table}.csv`;
    document.body.appendChild(a); a.click(); a.remove();
  });
  setInterval(tick, 1000);
  connect();
}

document.addEventListener("DOMContentLoaded", init);
