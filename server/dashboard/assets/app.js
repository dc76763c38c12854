// gozie dashboard: plain JavaScript, no dependencies. The view and its
// filters come from the query string; every view reloads its data on a
// timer while auto-refresh is on.
"use strict";

const params = new URLSearchParams(window.location.search);
const view = params.get("view") || "jobs";
const refreshSeconds = Math.max(1, parseInt(params.get("refresh") || "10", 10) || 10);
const MISSES = ["START_MISS", "END_MISS", "DURATION_MISS"];

function $(id) { return document.getElementById(id); }

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// fmt writes epoch milliseconds as yyyy-MM-dd HH:mmZ (UTC).
function fmt(ms) {
  if (ms === null || ms === undefined) return "-";
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}Z`;
}

function delay(min) {
  if (min === null || min === undefined) return "-";
  return (min > 0 ? "+" : "") + min + " min";
}

function statusCell(s) { return el("span", { class: "status " + (s || "") }, s || "-"); }

function links(jobUrl, consoleUrl) {
  const td = el("td", { class: "links" });
  if (jobUrl) td.append(el("a", { href: jobUrl, class: "job-link" }, "info"));
  if (consoleUrl) td.append(" ", el("a", { href: consoleUrl, class: "yarn-link" }, "YARN"));
  return td;
}

async function getJSON(url) {
  const resp = await fetch(url, { headers: { Accept: "application/json" } });
  if (!resp.ok) {
    const code = resp.headers.get("oozie-error-code") || resp.status;
    const msg = resp.headers.get("oozie-error-message") || resp.statusText;
    throw new Error(`${code}: ${msg}`);
  }
  return resp.json();
}

function showError(err) {
  const p = $("error");
  p.textContent = err ? String(err.message || err) : "";
  p.hidden = !err;
}

// ---- Jobs: bundles → coordinators → actions ----

function coordLine(c) {
  const counts = Object.entries(c.counts || {}).sort().map(([s, n]) => `${s} ${n}`).join(", ");
  return el("li", { class: "coordinator", "data-id": c.id },
    el("a", { href: "?view=coordinator&id=" + encodeURIComponent(c.id) }, c.name || c.id), " ",
    statusCell(c.status), " ", el("span", { class: "muted" }, counts || "no actions"),
    c.misses > 0 ? el("span", { class: "badge miss" }, `${c.misses} SLA miss${c.misses > 1 ? "es" : ""}`) : null);
}

async function loadJobs() {
  const o = await getJSON("api/overview");
  const bundles = $("bundles");
  bundles.replaceChildren(...(o.bundles.length ? o.bundles.map((b) =>
    el("div", { class: "card bundle", "data-id": b.id },
      el("strong", {}, b.name || b.id), " ", statusCell(b.status), " ", el("span", { class: "muted" }, b.id),
      el("ul", {}, ...b.coordinators.map(coordLine)))) : [el("p", { class: "muted" }, "No bundles.")]));
  const coords = $("coordinators");
  coords.replaceChildren(o.coordinators.length ? el("div", { class: "card" }, el("ul", {}, ...o.coordinators.map(coordLine)))
    : el("p", { class: "muted" }, "No coordinators outside bundles."));
  $("workflows").tBodies[0].replaceChildren(...o.workflows.map((w) => el("tr", { "data-id": w.id },
    el("td", { class: "id" }, el("a", { href: "../v2/job/" + encodeURIComponent(w.id) }, w.id)), el("td", {}, w.name),
    el("td", {}, statusCell(w.status)), el("td", {}, w.parentId || "-"), el("td", {}, fmt(w.createdTime)))));
}

// ---- Coordinator: timeline of nominal vs actual ----

function slaClass(a) {
  const s = a.sla ? a.sla.slaStatus : null;
  if (s === "MISS") return "miss";
  if (s === "MET") return "met";
  if (s === "IN_PROCESS" || a.status === "RUNNING") return "inprocess";
  return "notstarted";
}

const colors = { met: "#2e7d32", miss: "#c62828", inprocess: "#1565c0", notstarted: "#9e9e9e" };

function lateness(a) {
  const s = a.sla;
  if (!s) return null;
  if (s.endDelay !== undefined) return s.endDelay;
  if (s.startDelay !== undefined) return s.startDelay;
  return null;
}

function drawTimeline(actions, now) {
  const times = [];
  for (const a of actions) {
    times.push(a.nominalTime);
    const s = a.sla || {};
    for (const t of [s.expectedStart, s.expectedEnd, a.startTime, a.endTime]) if (t) times.push(t);
    if (a.startTime && !a.endTime) times.push(now);
  }
  const box = $("timeline");
  if (!actions.length) { box.replaceChildren(el("p", { class: "muted" }, "No actions yet.")); return; }
  const t0 = Math.min(...times), t1 = Math.max(...times, t0 + 60000);
  const left = 60, right = 90, width = 960, row = 22, top = 24;
  const x = (t) => left + ((t - t0) / (t1 - t0)) * (width - left - right);
  const root = svg("svg", { width, height: top + row * actions.length + 8, role: "img", "aria-label": "timeline" });
  root.append(svg("text", { x: left, y: 14 }, fmt(t0)), svg("text", { x: width - right, y: 14, "text-anchor": "end" }, fmt(t1)));
  actions.forEach((a, i) => {
    const y = top + i * row;
    const s = a.sla || {};
    const g = svg("g", { class: "action " + slaClass(a), "data-id": a.id });
    g.append(svg("title", {}, `${a.id} ${a.status}${s.slaStatus ? " SLA " + s.slaStatus : ""}${s.eventStatus ? " [" + s.eventStatus + "]" : ""}`));
    g.append(svg("text", { x: 4, y: y + 14 }, "#" + a.actionNumber));
    if (s.expectedEnd) {
      const from = s.expectedStart || a.nominalTime;
      g.append(svg("rect", { class: "expected", x: x(from), y: y + 3, width: Math.max(2, x(s.expectedEnd) - x(from)), height: row - 8,
        fill: "none", stroke: "#555", "stroke-dasharray": "3 2" }));
    }
    if (a.startTime) {
      const end = a.endTime || now;
      g.append(svg("rect", { class: "actual", x: x(a.startTime), y: y + 6, width: Math.max(2, x(end) - x(a.startTime)), height: row - 14,
        fill: colors[slaClass(a)] }));
    }
    g.append(svg("line", { class: "nominal", x1: x(a.nominalTime), x2: x(a.nominalTime), y1: y + 1, y2: y + row - 3, stroke: "#000", "stroke-width": 2 }));
    const late = lateness(a);
    if (late !== null) g.append(svg("text", { class: "lateness", x: width - right + 6, y: y + 14, fill: colors[slaClass(a)] }, delay(late)));
    root.append(g);
  });
  box.replaceChildren(root);
}

async function loadCoordinator() {
  const id = params.get("id");
  if (!id) throw new Error("no coordinator id");
  const c = await getJSON("api/coordinator/" + encodeURIComponent(id));
  $("coord-title").replaceChildren(`Coordinator ${c.name || c.id} `, statusCell(c.status), " ",
    el("span", { class: "muted" }, c.id), c.misses ? el("span", { class: "badge miss" }, `${c.misses} SLA misses`) : "");
  drawTimeline(c.actions, c.now || Date.now());
  $("coord-actions").tBodies[0].replaceChildren(...c.actions.map((a) => {
    const s = a.sla || {};
    return el("tr", { class: slaClass(a), "data-id": a.id },
      el("td", {}, a.actionNumber), el("td", {}, fmt(a.nominalTime)), el("td", {}, statusCell(a.status)),
      el("td", {}, fmt(a.startTime)), el("td", {}, fmt(a.endTime)), el("td", { class: "sla" }, s.slaStatus || "-"),
      el("td", {}, s.eventStatus || "-"), el("td", {}, delay(lateness(a))), links(a.jobUrl, a.consoleUrl));
  }));
}

// ---- SLA misses ----

function missFilter() {
  const parts = [];
  const event = params.get("event");
  parts.push("event_status=" + (event && MISSES.includes(event) ? event : MISSES.join(",")));
  if (params.get("app")) parts.push("app_name=" + params.get("app"));
  if (params.get("from")) parts.push("nominal_start=" + params.get("from"));
  if (params.get("to")) parts.push("nominal_end=" + params.get("to"));
  return parts.join(";");
}

async function loadMisses() {
  for (const k of ["app", "event", "from", "to"]) if (params.get(k)) $("f-" + k).value = params.get(k);
  const l = await getJSON("api/sla?order=desc&len=500&filter=" + encodeURIComponent(missFilter()));
  const rows = l.slaSummaryList;
  $("misses-empty").hidden = rows.length > 0;
  $("misses").tBodies[0].replaceChildren(...rows.map((s) => el("tr", { class: s.slaStatus === "MISS" ? "miss" : "late", "data-id": s.id },
    el("td", { class: "id" }, s.id), el("td", { class: "app" }, s.appName), el("td", {}, s.appType), el("td", {}, fmt(s.nominalTime)),
    el("td", {}, fmt(s.expectedEnd)), el("td", {}, fmt(s.actualEnd)), el("td", { class: "events" }, s.eventStatus),
    el("td", {}, delay(s.startDelay)), el("td", { class: "end-delay" }, delay(s.endDelay)),
    el("td", { class: "sla" }, s.slaStatus), el("td", {}, statusCell(s.jobStatus)), links(s.jobUrl, s.consoleUrl))));
}

// ---- main ----

const loaders = { jobs: loadJobs, coordinator: loadCoordinator, misses: loadMisses };

async function refresh() {
  try {
    await (loaders[view] || loadJobs)();
    showError(null);
    $("updated").textContent = "updated " + new Date().toISOString().slice(11, 19) + "Z";
    document.body.dataset.loaded = "true";
  } catch (err) {
    showError(err);
  }
}

function main() {
  const section = $("view-" + view) || $("view-jobs");
  section.hidden = false;
  const nav = $("nav-" + (view === "coordinator" ? "jobs" : view));
  if (nav) nav.classList.add("active");
  $("refresh-every").textContent = `(${refreshSeconds}s)`;
  let timer = setInterval(refresh, refreshSeconds * 1000);
  $("auto-refresh").addEventListener("change", (e) => {
    clearInterval(timer);
    if (e.target.checked) timer = setInterval(refresh, refreshSeconds * 1000);
  });
  refresh();
}

main();
