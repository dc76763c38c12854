// gozie web console: plain JavaScript, no dependencies, no build step.
//
// Every page is a view of the URL's fragment (#/workflows?status=RUNNING,
// #/workflow/<id>?tab=graph, …) and reads Oozie's REST API under /oozie/v2
// (plus /oozie/dashboard/api for the overview, coordinator timelines and SLA
// links). Commands are the CLI's PUT requests. Under simple authentication
// every request carries user.name from the user field and no cookie; under
// Kerberos the browser's SPNEGO and its hadoop.auth cookie authenticate.
"use strict";

const ROOT = "/oozie/";
const USER_KEY = "gozie.console.user";
const REFRESH_KEY = "gozie.console.refresh";
const state = { auth: "simple", user: "", renders: 0 };

// ---- DOM helpers ----

function $(id) { return document.getElementById(id); }

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "function") e.addEventListener(k.replace(/^on/, ""), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
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

function statusCell(s) { return el("span", { class: "status " + (s || "") }, s || "-"); }

// fmtDate writes an Oozie date (RFC 1123 text) or epoch milliseconds as
// yyyy-MM-dd HH:mm:ssZ (UTC).
function fmtDate(v) {
  if (v === null || v === undefined || v === "") return "-";
  const d = new Date(v);
  if (isNaN(d.getTime())) return String(v);
  return d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

function delay(min) {
  if (min === null || min === undefined) return "-";
  return (min > 0 ? "+" : "") + min + " min";
}

function kindOf(id) {
  if (!id) return "";
  if (id.includes("@")) return /-C@/.test(id) ? "coordaction" : "action";
  if (id.endsWith("-W")) return "workflow";
  if (id.endsWith("-C")) return "coordinator";
  if (id.endsWith("-B")) return "bundle";
  return "";
}

// jobLink links a job id to its console page (a coordinator action to its
// coordinator).
function jobLink(id, text) {
  if (!id) return "-";
  const k = kindOf(id);
  if (k === "workflow" || k === "coordinator" || k === "bundle") return el("a", { href: route([k, id]), class: "job-link" }, text || id);
  if (k === "coordaction") return el("a", { href: route(["coordinator", id.split("@")[0]]) }, text || id);
  if (k === "action") return el("a", { href: route(["workflow", id.split("@")[0]]) }, text || id);
  return text || id;
}

// Only http(s) URLs become links: Oozie writes "-" for actions with no
// console, and a tracking URL is whatever an application registered.
function extLink(url, text) {
  if (!url || !/^https?:\/\//i.test(url)) return text || "-";
  return el("a", { href: url, target: "_blank", rel: "noopener", class: "console-link" }, text || url);
}

// kv renders an object as a two-column table; nested values as JSON.
function kv(obj, attrs) {
  const rows = Object.entries(obj).map(([k, v]) => el("tr", { "data-key": k }, el("th", {}, k),
    el("td", {}, v instanceof Node ? v : (v !== null && typeof v === "object") ? JSON.stringify(v) : (v === "" || v === null || v === undefined ? "-" : String(v)))));
  return el("table", Object.assign({ class: "kv" }, attrs || {}), el("tbody", {}, rows));
}

function grid(headers, rows, attrs) {
  return el("div", { class: "scroll" }, el("table", Object.assign({ class: "grid" }, attrs || {}),
    el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))), el("tbody", {}, rows)));
}

function pre(id, text, cls) { return el("pre", { id, class: cls || "" }, text); }

// ---- routing ----

function route(parts, query) {
  let h = "#/" + parts.map((p) => encodeURIComponent(p)).join("/");
  const q = query instanceof URLSearchParams ? query : new URLSearchParams(query || {});
  for (const [k, v] of [...q.entries()]) if (v === "") q.delete(k);
  const s = q.toString();
  return s ? h + "?" + s : h;
}

function parseHash() {
  const h = location.hash.replace(/^#\/?/, "");
  const i = h.indexOf("?");
  const path = i < 0 ? h : h.slice(0, i);
  const parts = path.split("/").filter((p) => p !== "").map(decodeURIComponent);
  return { parts, q: new URLSearchParams(i < 0 ? "" : h.slice(i + 1)) };
}

// ---- the REST API ----

// request sends one call to the server with the console's identity and
// throws an Error carrying the server's Oozie error (code and message).
async function request(method, path, query, init) {
  const u = new URL(ROOT + path, location.origin);
  for (const [k, v] of Object.entries(query || {})) if (v !== undefined && v !== null && v !== "") u.searchParams.set(k, v);
  if (state.auth === "simple" && state.user) u.searchParams.set("user.name", state.user);
  const opts = Object.assign({ method, credentials: state.auth === "kerberos" ? "same-origin" : "omit" }, init || {});
  opts.headers = Object.assign({ Accept: "application/json, text/plain;q=0.9, */*;q=0.5" }, opts.headers || {});
  const resp = await fetch(u, opts);
  if (!resp.ok) throw await apiError(resp);
  return resp;
}

async function apiError(resp) {
  let code = resp.headers.get("oozie-error-code") || "";
  let msg = resp.headers.get("oozie-error-message") || "";
  if (!msg) {
    const text = await resp.text().catch(() => "");
    try {
      const b = JSON.parse(text);
      code = code || b.errorCode || "";
      msg = b.errorMessage || text;
    } catch (_) {
      msg = text || resp.statusText;
    }
  }
  const full = code && !msg.startsWith(code) ? `${code}: ${msg}` : msg;
  const e = new Error(`${full} (HTTP ${resp.status})`);
  e.status = resp.status;
  e.code = code;
  return e;
}

async function getJSON(path, query) { return (await request("GET", path, query)).json(); }
async function getText(path, query) { return (await request("GET", path, query)).text(); }

function jobPath(id) { return "v2/job/" + encodeURIComponent(id); }

// ---- messages and confirmation ----

function showMessage(text, isError) {
  const p = $("message");
  p.textContent = text || "";
  p.className = isError ? "error" : "";
  p.hidden = !text;
}

// confirmCommand asks before a command: title, optional input fields
// ({name, label, type, value, options}), then run(values) sends it. The
// server's answer, success or error, is shown in the page.
function confirmCommand(title, fields, run) {
  const box = $("confirm");
  $("confirm-text").textContent = title;
  $("confirm-fields").replaceChildren(...(fields || []).map((f) => {
    let input;
    if (f.options) input = el("select", { name: f.name }, f.options.map((o) => el("option", { value: o }, o)));
    else input = el("input", { name: f.name, type: f.type || "text", value: f.value || "", placeholder: f.placeholder || "" });
    if (f.type === "checkbox" && f.checked) input.checked = true;
    return el("label", {}, f.label + " ", input);
  }));
  box.hidden = false;
  return new Promise((resolve) => {
    const done = async (ok) => {
      $("confirm-form").onsubmit = null;
      $("confirm-no").onclick = null;
      box.hidden = true;
      if (!ok) { resolve(false); return; }
      const values = {};
      for (const i of $("confirm-fields").querySelectorAll("input,select")) values[i.name] = i.type === "checkbox" ? i.checked : i.value.trim();
      try {
        const what = await run(values);
        showMessage(what || "Done.", false);
        resolve(true);
      } catch (err) {
        showMessage(err.message || String(err), true);
        resolve(false);
      }
      render();
    };
    $("confirm-form").onsubmit = (e) => { e.preventDefault(); done(true); };
    $("confirm-no").onclick = () => done(false);
  });
}

function command(label, title, fields, run, cls) {
  return el("button", { type: "button", class: cls || "", "data-command": label.toLowerCase().replace(/\s+/g, "-"),
    onclick: () => confirmCommand(title, fields, run) }, label);
}

async function put(id, query, body) {
  const init = body ? { body, headers: { "Content-Type": "application/xml;charset=UTF-8" } } : undefined;
  await request("PUT", jobPath(id), query, init);
}

function simpleCommand(id, action, label, cls) {
  return command(label, `${label} ${id}?`, [], async () => {
    await put(id, { action });
    return `${action} of ${id} accepted.`;
  }, cls);
}

function slaCommands(id) {
  return [
    command("SLA enable", `Enable the SLA alerts of ${id}?`, [], async () => {
      await put(id, { action: "sla-enable" });
      return `SLA alerts of ${id} enabled.`;
    }),
    command("SLA disable", `Disable the SLA alerts of ${id}?`, [], async () => {
      await put(id, { action: "sla-disable" });
      return `SLA alerts of ${id} disabled.`;
    }),
  ];
}

function configurationXML(props) {
  const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return "<configuration>" + Object.entries(props).map(([k, v]) =>
    `<property><name>${esc(k)}</name><value>${esc(v)}</value></property>`).join("") + "</configuration>";
}

// ---- tabs ----

function tabs(parts, q, names, current) {
  return el("nav", { class: "tabs" }, names.map(([key, label]) => {
    const nq = new URLSearchParams(q);
    nq.set("tab", key);
    return el("a", { href: route(parts, nq), id: "tab-" + key, class: key === current ? "active" : "" }, label);
  }));
}

async function textPanel(id, load, cls) {
  try {
    const text = await load();
    return text ? pre(id, text, cls) : el("p", { id, class: "muted" }, "(empty)");
  } catch (err) {
    return pre(id, err.message, "error " + (cls || ""));
  }
}

// ---- lists of jobs ----

const KINDS = {
  workflows: {
    jobtype: "wf", key: "workflows", title: "Workflows", page: "workflow",
    statuses: ["PREP", "RUNNING", "SUSPENDED", "SUCCEEDED", "KILLED", "FAILED"],
    columns: [["id", "Job id"], ["appName", "Name"], ["status", "Status"], ["run", "Run"], ["user", "User"],
      ["createdTime", "Created"], ["startTime", "Started"], ["lastModTime", "Last modified"], ["endTime", "Ended"], ["parentId", "Parent"]],
  },
  coordinators: {
    jobtype: "coordinator", key: "coordinatorjobs", title: "Coordinators", page: "coordinator",
    statuses: ["PREP", "RUNNING", "RUNNINGWITHERROR", "PREPSUSPENDED", "SUSPENDED", "SUSPENDEDWITHERROR", "PREPPAUSED",
      "PAUSED", "PAUSEDWITHERROR", "SUCCEEDED", "DONEWITHERROR", "KILLED", "FAILED", "IGNORED"],
    columns: [["coordJobId", "Job id"], ["coordJobName", "Name"], ["status", "Status"], ["user", "User"], ["frequency", "Frequency"],
      ["timeUnit", "Unit"], ["startTime", "Start"], ["endTime", "End"], ["nextMaterializedTime", "Next materialization"], ["bundleId", "Bundle"]],
  },
  bundles: {
    jobtype: "bundle", key: "bundlejobs", title: "Bundles", page: "bundle",
    statuses: ["PREP", "RUNNING", "RUNNINGWITHERROR", "PREPSUSPENDED", "SUSPENDED", "SUSPENDEDWITHERROR", "PREPPAUSED",
      "PAUSED", "PAUSEDWITHERROR", "SUCCEEDED", "DONEWITHERROR", "KILLED", "FAILED"],
    columns: [["bundleJobId", "Job id"], ["bundleJobName", "Name"], ["status", "Status"], ["user", "User"],
      ["kickoffTime", "Kickoff"], ["createdTime", "Created"], ["endTime", "End"]],
  },
};

const DATE_KEYS = /Time$/;

function cellOf(kind, key, job) {
  const v = job[key];
  if (key === kind.columns[0][0]) return el("td", { class: "id" }, el("a", { href: route([kind.page, v]), class: "job-link" }, v));
  if (key === "status") return el("td", { class: "nowrap" }, statusCell(v));
  if (key === "parentId" || key === "bundleId") return el("td", { class: "id" }, v ? jobLink(v) : "-");
  if (DATE_KEYS.test(key)) return el("td", { class: "nowrap" }, fmtDate(v));
  return el("td", {}, v === undefined || v === null || v === "" ? "-" : String(v));
}

function sortRows(jobs, key, dir) {
  if (!key) return jobs;
  const val = (j) => DATE_KEYS.test(key) ? (new Date(j[key]).getTime() || 0) : (j[key] ?? "");
  const sorted = [...jobs].sort((a, b) => {
    const x = val(a), y = val(b);
    return typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
  });
  return dir === "desc" ? sorted.reverse() : sorted;
}

async function listView(name, parts, q) {
  const kind = KINDS[name];
  const offset = Math.max(1, parseInt(q.get("offset") || "1", 10) || 1);
  const len = Math.max(1, parseInt(q.get("len") || "50", 10) || 50);
  const filter = [];
  for (const k of ["status", "name", "user", "text"]) if (q.get(k)) filter.push(`${k}=${q.get(k)}`);
  if (q.get("sortby")) filter.push("sortby=" + q.get("sortby"));
  const l = await getJSON("v2/jobs", { jobtype: kind.jobtype, offset, len, filter: filter.join(";") });
  const jobs = sortRows(l[kind.key] || [], q.get("sort"), q.get("dir"));

  const form = el("form", { class: "filters", id: "filters" },
    el("label", {}, "Search (name, user or id)", el("input", { name: "text", id: "f-text", value: q.get("text") || "", size: 28 })),
    el("label", {}, "Name", el("input", { name: "name", id: "f-name", value: q.get("name") || "", size: 14 })),
    el("label", {}, "User", el("input", { name: "user", id: "f-user", value: q.get("user") || "", size: 10 })),
    el("label", {}, "Status", el("select", { name: "status", id: "f-status" }, el("option", { value: "" }, "any"),
      kind.statuses.map((s) => el("option", { value: s, selected: q.get("status") === s }, s)))),
    el("label", {}, "Order", el("select", { name: "sortby", id: "f-sortby" },
      el("option", { value: "" }, "created, newest first"),
      el("option", { value: "lastModifiedTime", selected: q.get("sortby") === "lastModifiedTime" }, "last modified, newest first"))),
    el("label", {}, "Per page", el("select", { name: "len", id: "f-len" },
      [20, 50, 100, 500].map((n) => el("option", { value: n, selected: len === n }, n)))),
    el("button", { type: "submit", id: "f-apply" }, "Apply"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const nq = new URLSearchParams();
    for (const [k, v] of new FormData(form).entries()) if (v) nq.set(k, v);
    location.hash = route([name], nq);
  });

  const heads = kind.columns.map(([key, label]) => {
    const dir = q.get("sort") === key ? q.get("dir") || "asc" : "";
    const nq = new URLSearchParams(q);
    nq.set("sort", key);
    nq.set("dir", dir === "asc" ? "desc" : "asc");
    return el("th", { class: "sortable" + (dir ? " sorted-" + dir : ""), "data-key": key },
      el("a", { href: route([name], nq) }, label));
  });
  const rows = jobs.map((j) => el("tr", { "data-id": j[kind.columns[0][0]], "data-status": j.status },
    kind.columns.map(([key]) => cellOf(kind, key, j))));
  const table = el("div", { class: "scroll" }, el("table", { class: "grid", id: "jobs" },
    el("thead", {}, el("tr", {}, heads)), el("tbody", {}, rows)));

  const page = (o) => { const nq = new URLSearchParams(q); nq.set("offset", o); return route([name], nq); };
  const last = offset + jobs.length - 1;
  const pager = el("div", { class: "pager" },
    offset > 1 ? el("a", { href: page(Math.max(1, offset - len)), id: "prev" }, "← previous") : null,
    el("span", { id: "range" }, l.total ? `${offset}–${last} of ${l.total}` : "no jobs"),
    last < l.total ? el("a", { href: page(offset + len), id: "next" }, "next →") : null);
  return [el("h2", {}, kind.title), form, pager, table,
    jobs.length ? null : el("p", { class: "muted", id: "empty" }, "No jobs match.")];
}

// ---- workflow page ----

// infoBlock lays a job's facts out in two columns.
function infoBlock(entries) {
  const half = Math.ceil(entries.length / 2);
  return el("div", { id: "info" }, kv(Object.fromEntries(entries.slice(0, half))), kv(Object.fromEntries(entries.slice(half))));
}

async function workflowView(parts, q) {
  const id = parts[1];
  const tab = q.get("tab") || "actions";
  const job = await getJSON(jobPath(id), { show: "info" });
  const controls = el("div", { class: "controls", id: "controls" },
    simpleCommand(id, "kill", "Kill", "danger"), simpleCommand(id, "suspend", "Suspend"), simpleCommand(id, "resume", "Resume"),
    command("Rerun", `Rerun ${id}?`, [{ name: "failnodes", label: "only the failed nodes", type: "checkbox", checked: true },
      { name: "skip", label: "or skip these nodes (comma-separated)", placeholder: "node1,node2" }], async (v) => {
      const props = v.skip ? { "oozie.wf.rerun.skip.nodes": v.skip } : { "oozie.wf.rerun.failnodes": String(v.failnodes) };
      await put(id, { action: "rerun" }, configurationXML(props));
      return `rerun of ${id} accepted.`;
    }),
    slaCommands(id));
  const info = infoBlock([
    ["Job id", job.id], ["Name", job.appName], ["Status", statusCell(job.status)], ["Run", job.run], ["User", job.user],
    ["Group", job.group], ["ACL", job.acl], ["App path", job.appPath], ["Parent", job.parentId ? jobLink(job.parentId) : "-"],
    ["External id", job.externalId], ["Created", fmtDate(job.createdTime)], ["Started", fmtDate(job.startTime)],
    ["Last modified", fmtDate(job.lastModTime)], ["Ended", fmtDate(job.endTime)],
    ["REST", el("a", { href: ROOT + jobPath(id) + "?show=info" }, "JSON")],
  ]);
  const t = tabs(parts, q, [["actions", "Actions"], ["graph", "Graph"], ["definition", "Definition"],
    ["configuration", "Configuration"], ["log", "Job log"], ["audit", "Audit log"]], tab);
  let body;
  switch (tab) {
    case "graph": body = await graphPanel(id); break;
    case "definition": body = await textPanel("definition", () => getText(jobPath(id), { show: "definition" })); break;
    case "configuration": body = pre("configuration", job.conf || ""); break;
    case "log": body = await textPanel("job-log", () => getText(jobPath(id), { show: "log" }), "log"); break;
    case "audit": body = await textPanel("audit-log", () => getText(jobPath(id), { show: "auditlog" }), "log"); break;
    default: body = actionsPanel(id, job.actions || []);
  }
  return [el("h2", { id: "title" }, `Workflow ${job.appName} `, statusCell(job.status)), controls, info, t,
    el("div", { class: "panel", id: "panel-" + tab }, body)];
}

function actionsPanel(wfID, actions) {
  const detail = el("div", { id: "action-detail" });
  const rows = actions.map((a) => el("tr", { "data-id": a.id, "data-name": a.name, "data-status": a.status },
    el("td", { class: "name" }, a.name), el("td", {}, a.type), el("td", { class: "nowrap" }, statusCell(a.status)),
    el("td", { class: "id" }, a.externalId ? extLink(a.consoleUrl, a.externalId) : (a.consoleUrl ? extLink(a.consoleUrl, "console") : "-")),
    el("td", {}, a.externalStatus || "-"), el("td", { class: "error-code" }, a.errorCode || "-"),
    el("td", { class: "error-message" }, a.errorMessage || "-"),
    el("td", { class: "nowrap" }, fmtDate(a.startTime)), el("td", { class: "nowrap" }, fmtDate(a.endTime)),
    el("td", { class: "nowrap" }, a.type && a.type.startsWith(":") ? null : [ // control nodes run nothing
      el("button", { type: "button", class: "retries", onclick: () => showRetries(a, detail) }, `retries (${a.retries || 0})`), " ",
      el("button", { type: "button", class: "log", onclick: () => showActionLog(a, detail) }, "log")])));
  return [grid(["Name", "Type", "Status", "External id", "External status", "Error code", "Error message", "Started", "Ended", ""],
    rows, { id: "actions" }), actions.length ? null : el("p", { class: "muted" }, "No actions yet."), detail];
}

// showActionLog shows the launcher's output of one action
// (GET job/<wf>@<action>?show=log), or the server's error.
async function showActionLog(a, detail) {
  detail.replaceChildren(el("h3", {}, `Log of ${a.name}`), await textPanel("action-log", () => getText(jobPath(a.id), { show: "log" }), "log"));
}

async function showRetries(a, detail) {
  let body;
  try {
    const r = await getJSON(jobPath(a.id), { show: "retries" });
    const list = r.retries || [];
    body = list.length ? grid(["Attempt", "Started", "Ended", "Console", "Child ids"], list.map((x) => el("tr", {},
      el("td", {}, x.attempt), el("td", {}, fmtDate(x.startTime)), el("td", {}, fmtDate(x.endTime)),
      el("td", {}, extLink(x.consoleUrl)), el("td", {}, x.externalChildIDs || "-"))), { id: "retries" })
      : el("p", { class: "muted", id: "retries" }, "No retries.");
  } catch (err) {
    body = el("p", { class: "error", id: "retries" }, err.message);
  }
  detail.replaceChildren(el("h3", {}, `Retries of ${a.name}`), body);
}

// graphPanel inlines the server's SVG picture of the workflow, kill nodes
// included, without any script it might carry.
async function graphPanel(id) {
  const box = el("div", { id: "graph" });
  try {
    const text = await getText(jobPath(id), { show: "graph", format: "svg", "show-kill": "true" });
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = doc.documentElement;
    if (!root || root.nodeName.toLowerCase() !== "svg") throw new Error("the server's graph is not SVG");
    for (const s of root.querySelectorAll("script, foreignObject")) s.remove();
    for (const n of root.querySelectorAll("*")) {
      for (const attr of [...n.attributes]) {
        if (/^on/i.test(attr.name) || /^\s*javascript:/i.test(attr.value)) n.removeAttribute(attr.name);
      }
    }
    box.append(document.importNode(root, true));
  } catch (err) {
    box.append(el("p", { class: "error" }, err.message));
  }
  return box;
}

// ---- coordinator page ----

const slaColors = { met: "#2e7d32", miss: "#c62828", inprocess: "#1565c0", notstarted: "#9e9e9e" };

function slaClass(a) {
  const s = a.sla ? a.sla.slaStatus : null;
  if (s === "MISS") return "miss";
  if (s === "MET") return "met";
  if (s === "IN_PROCESS" || a.status === "RUNNING") return "inprocess";
  return "notstarted";
}

function lateness(a) {
  const s = a.sla;
  if (!s) return null;
  if (s.endDelay !== undefined) return s.endDelay;
  if (s.startDelay !== undefined) return s.startDelay;
  return null;
}

// drawTimeline draws each action's nominal time, expected window and run.
function drawTimeline(actions, now) {
  const box = el("div", { id: "timeline" });
  if (!actions.length) { box.append(el("p", { class: "muted" }, "No actions yet.")); return box; }
  const times = [];
  for (const a of actions) {
    times.push(a.nominalTime);
    const s = a.sla || {};
    for (const t of [s.expectedStart, s.expectedEnd, a.startTime, a.endTime]) if (t) times.push(t);
    if (a.startTime && !a.endTime) times.push(now);
  }
  const t0 = Math.min(...times), t1 = Math.max(...times, t0 + 60000);
  const left = 60, right = 90, width = 1100, row = 22, top = 24;
  const x = (t) => left + ((t - t0) / (t1 - t0)) * (width - left - right);
  const root = svg("svg", { width, height: top + row * actions.length + 8, viewBox: `0 0 ${width} ${top + row * actions.length + 8}`,
    role: "img", "aria-label": "timeline" });
  root.append(svg("text", { x: left, y: 14 }, fmtDate(t0)), svg("text", { x: width - right, y: 14, "text-anchor": "end" }, fmtDate(t1)));
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
        fill: slaColors[slaClass(a)] }));
    }
    g.append(svg("line", { class: "nominal", x1: x(a.nominalTime), x2: x(a.nominalTime), y1: y + 1, y2: y + row - 3, stroke: "#000", "stroke-width": 2 }));
    const late = lateness(a);
    if (late !== null) g.append(svg("text", { class: "lateness", x: width - right + 6, y: y + 14, fill: slaColors[slaClass(a)] }, delay(late)));
    root.append(g);
  });
  box.append(root);
  return box;
}

async function timelineBlock(id) {
  try {
    const c = await getJSON("dashboard/api/coordinator/" + encodeURIComponent(id));
    const legend = el("p", { class: "legend" }, el("span", { class: "swatch met" }), "MET ", el("span", { class: "swatch miss" }), "MISS ",
      el("span", { class: "swatch inprocess" }), "IN PROCESS ", el("span", { class: "swatch notstarted" }), "NOT STARTED ",
      el("span", { class: "swatch expected" }), "expected start → end ", el("span", { class: "tick" }), "nominal time");
    const rows = c.actions.map((a) => {
      const s = a.sla || {};
      return el("tr", { class: slaClass(a), "data-id": a.id },
        el("td", {}, a.actionNumber), el("td", { class: "nowrap" }, fmtDate(a.nominalTime)), el("td", {}, statusCell(a.status)),
        el("td", { class: "nowrap" }, fmtDate(a.startTime)), el("td", { class: "nowrap" }, fmtDate(a.endTime)),
        el("td", { class: "sla" }, s.slaStatus || "-"), el("td", {}, s.eventStatus || "-"), el("td", {}, delay(lateness(a))));
    });
    return [el("h3", {}, "Timeline", c.misses ? el("span", { class: "badge miss" }, `${c.misses} SLA miss${c.misses > 1 ? "es" : ""}`) : null),
      legend, drawTimeline(c.actions, c.now || Date.now()),
      el("details", {}, el("summary", {}, "SLA per action"),
        grid(["#", "Nominal", "Status", "Started", "Ended", "SLA", "Events", "Lateness"], rows, { id: "coord-sla" }))];
  } catch (err) {
    return el("p", { class: "error" }, "timeline: " + err.message);
  }
}

async function coordinatorView(parts, q) {
  const id = parts[1];
  const tab = q.get("tab") || "actions";
  const offset = Math.max(1, parseInt(q.get("offset") || "1", 10) || 1);
  const len = 50;
  const job = await getJSON(jobPath(id), { show: "info", order: "desc", offset, len });
  const controls = el("div", { class: "controls", id: "controls" },
    simpleCommand(id, "kill", "Kill", "danger"), simpleCommand(id, "suspend", "Suspend"), simpleCommand(id, "resume", "Resume"),
    command("Rerun", `Rerun actions of ${id}`, [
      { name: "type", label: "scope", options: ["action", "date"] },
      { name: "scope", label: "actions (1,3-5) or dates (2026-01-01T00:00Z::2026-01-02T00:00Z)", placeholder: "1" },
      { name: "refresh", label: "refresh inputs", type: "checkbox" },
      { name: "nocleanup", label: "keep outputs (no cleanup)", type: "checkbox" },
      { name: "failed", label: "only the failed nodes", type: "checkbox" }], async (v) => {
      await put(id, { action: "coord-rerun", type: v.type, scope: v.scope, refresh: String(v.refresh),
        nocleanup: String(v.nocleanup), failed: String(v.failed) });
      return `rerun of ${id} ${v.type} ${v.scope} accepted.`;
    }),
    command("Change", `Change ${id} (leave a field empty to keep it)`, [
      { name: "endtime", label: "end time", placeholder: "2026-02-01T00:00Z" },
      { name: "concurrency", label: "concurrency", placeholder: "2" },
      { name: "pausetime", label: "pause time", placeholder: "2026-01-15T00:00Z" }], async (v) => {
      const value = ["endtime", "concurrency", "pausetime"].filter((k) => v[k]).map((k) => `${k}=${v[k]}`).join(";");
      await put(id, { action: "change", value });
      return `change of ${id} (${value}) accepted.`;
    }),
    slaCommands(id));
  const info = infoBlock([
    ["Job id", job.coordJobId], ["Name", job.coordJobName], ["Status", statusCell(job.status)], ["User", job.user],
    ["Group", job.group], ["ACL", job.acl], ["App path", job.coordJobPath], ["Bundle", job.bundleId ? jobLink(job.bundleId) : "-"],
    ["Frequency", job.frequency ? `${job.frequency} ${job.timeUnit || ""}` : "-"], ["Time zone", job.timeZone], ["Concurrency", job.concurrency],
    ["Timeout (min)", job.timeOut], ["Execution", job.executionPolicy], ["Start", fmtDate(job.startTime)], ["End", fmtDate(job.endTime)],
    ["Pause", fmtDate(job.pauseTime)], ["Next materialization", fmtDate(job.nextMaterializedTime)], ["Last action", fmtDate(job.lastAction)],
    ["Error", job.errorCode ? `${job.errorCode}: ${job.errorMessage || ""}` : "-"],
  ]);
  const t = tabs(parts, q, [["actions", "Actions"], ["missing", "Missing dependencies"], ["definition", "Definition"],
    ["configuration", "Configuration"], ["log", "Job log"], ["audit", "Audit log"]], tab);
  let body;
  switch (tab) {
    case "missing": body = await missingPanel(id); break;
    case "definition": body = await textPanel("definition", () => getText(jobPath(id), { show: "definition" })); break;
    case "configuration": body = pre("configuration", job.conf || ""); break;
    case "log": body = await textPanel("job-log", () => getText(jobPath(id), { show: "log" }), "log"); break;
    case "audit": body = await textPanel("audit-log", () => getText(jobPath(id), { show: "auditlog" }), "log"); break;
    default: body = [await timelineBlock(id), coordActions(parts, q, job, offset, len)];
  }
  return [el("h2", { id: "title" }, `Coordinator ${job.coordJobName} `, statusCell(job.status)), controls, info, t,
    el("div", { class: "panel", id: "panel-" + tab }, body)];
}

function coordActions(parts, q, job, offset, len) {
  const rows = (job.actions || []).map((a) => el("tr", { "data-id": a.id, "data-status": a.status },
    el("td", {}, a.actionNumber), el("td", { class: "nowrap" }, fmtDate(a.nominalTime)), el("td", { class: "nowrap" }, statusCell(a.status)),
    el("td", { class: "id" }, a.externalId ? el("a", { href: route(["workflow", a.externalId]), class: "workflow-link" }, a.externalId) : "-"),
    el("td", {}, a.externalStatus || "-"), el("td", { class: "nowrap" }, fmtDate(a.createdTime)),
    el("td", { class: "nowrap" }, fmtDate(a.lastModifiedTime)), el("td", { class: "id" }, a.missingDependencies || "-"),
    el("td", {}, a.errorCode || "-"), el("td", {}, a.errorMessage || "-"), el("td", {}, a.consoleUrl ? extLink(a.consoleUrl, "console") : "-")));
  const page = (o) => { const nq = new URLSearchParams(q); nq.set("offset", o); return route(parts, nq); };
  const total = job.total || 0;
  return [el("h3", {}, "Actions (newest first)"),
    el("div", { class: "pager" }, offset > 1 ? el("a", { href: page(Math.max(1, offset - len)) }, "← newer") : null,
      el("span", {}, total ? `${offset}–${offset + rows.length - 1} of ${total}` : "no actions"),
      offset + rows.length - 1 < total ? el("a", { href: page(offset + len) }, "older →") : null),
    grid(["#", "Nominal", "Status", "Workflow", "External status", "Created", "Last modified", "Missing dependencies",
      "Error code", "Error message", "Console"], rows, { id: "coord-actions" })];
}

async function missingPanel(id) {
  try {
    const m = await getJSON(jobPath(id), { show: "missing-dependencies" });
    const rows = [];
    for (const a of m.missingDependencies || []) {
      for (const d of a.dataSets || [{ dataSet: "-", missingDependencies: [] }]) {
        rows.push(el("tr", {}, el("td", {}, a.id), el("td", { class: "id" }, a.blockedOn || "-"), el("td", {}, d.dataSet),
          el("td", { class: "id" }, (d.missingDependencies || []).join("\n") || "-")));
      }
    }
    return rows.length ? grid(["Action", "Blocked on", "Dataset", "Missing"], rows, { id: "missing" })
      : el("p", { class: "muted", id: "missing" }, "No action waits for data.");
  } catch (err) {
    return el("p", { class: "error", id: "missing" }, err.message);
  }
}

// ---- bundle page ----

async function bundleView(parts, q) {
  const id = parts[1];
  const tab = q.get("tab") || "coordinators";
  const job = await getJSON(jobPath(id), { show: "info" });
  const controls = el("div", { class: "controls", id: "controls" },
    simpleCommand(id, "kill", "Kill", "danger"), simpleCommand(id, "suspend", "Suspend"), simpleCommand(id, "resume", "Resume"),
    slaCommands(id));
  const info = infoBlock([
    ["Job id", job.bundleJobId], ["Name", job.bundleJobName], ["Status", statusCell(job.status)], ["User", job.user],
    ["Group", job.group], ["ACL", job.acl], ["App path", job.bundleJobPath], ["Kickoff", fmtDate(job.kickoffTime)],
    ["Start", fmtDate(job.startTime)], ["End", fmtDate(job.endTime)], ["Pause", fmtDate(job.pauseTime)], ["Created", fmtDate(job.createdTime)],
  ]);
  const t = tabs(parts, q, [["coordinators", "Coordinators"], ["definition", "Definition"], ["configuration", "Configuration"],
    ["log", "Job log"], ["audit", "Audit log"]], tab);
  let body;
  switch (tab) {
    case "definition": body = await textPanel("definition", () => getText(jobPath(id), { show: "definition" })); break;
    case "configuration": body = pre("configuration", job.conf || ""); break;
    case "log": body = await textPanel("job-log", () => getText(jobPath(id), { show: "log" }), "log"); break;
    case "audit": body = await textPanel("audit-log", () => getText(jobPath(id), { show: "auditlog" }), "log"); break;
    default:
      body = grid(["Coordinator", "Name", "Status", "Frequency", "Start", "End", "Next materialization"],
        (job.bundleCoordJobs || []).map((c) => el("tr", { "data-id": c.coordJobId, "data-status": c.status },
          el("td", { class: "id" }, jobLink(c.coordJobId)), el("td", {}, c.coordJobName), el("td", {}, statusCell(c.status)),
          el("td", {}, c.frequency ? `${c.frequency} ${c.timeUnit || ""}` : "-"), el("td", { class: "nowrap" }, fmtDate(c.startTime)),
          el("td", { class: "nowrap" }, fmtDate(c.endTime)), el("td", { class: "nowrap" }, fmtDate(c.nextMaterializedTime)))),
        { id: "bundle-coordinators" });
  }
  return [el("h2", { id: "title" }, `Bundle ${job.bundleJobName} `, statusCell(job.status)), controls, info, t,
    el("div", { class: "panel", id: "panel-" + tab }, body)];
}

// ---- overview: bundles → coordinators, recent workflows ----

function coordLine(c) {
  const counts = Object.entries(c.counts || {}).sort().map(([s, n]) => `${s} ${n}`).join(", ");
  return el("li", { class: "coordinator", "data-id": c.id },
    el("a", { href: route(["coordinator", c.id]) }, c.name || c.id), " ",
    statusCell(c.status), " ", el("span", { class: "muted" }, counts || "no actions"),
    c.misses > 0 ? el("span", { class: "badge miss" }, `${c.misses} SLA miss${c.misses > 1 ? "es" : ""}`) : null);
}

async function overviewView() {
  const o = await getJSON("dashboard/api/overview");
  return [
    el("h2", {}, "Bundles"),
    el("div", { id: "bundles" }, o.bundles.length ? o.bundles.map((b) => el("div", { class: "card bundle", "data-id": b.id },
      el("a", { href: route(["bundle", b.id]) }, el("strong", {}, b.name || b.id)), " ", statusCell(b.status), " ",
      el("span", { class: "muted" }, b.id), el("ul", {}, b.coordinators.map(coordLine))))
      : el("p", { class: "muted" }, "No bundles.")),
    el("h2", {}, "Coordinators"),
    el("div", { id: "coordinators" }, o.coordinators.length ? el("div", { class: "card" }, el("ul", {}, o.coordinators.map(coordLine)))
      : el("p", { class: "muted" }, "No coordinators outside bundles.")),
    el("h2", {}, "Recent workflows"),
    grid(["Job", "Name", "Status", "Parent", "Created"], o.workflows.map((w) => el("tr", { "data-id": w.id },
      el("td", { class: "id" }, jobLink(w.id)), el("td", {}, w.name), el("td", {}, statusCell(w.status)),
      el("td", { class: "id" }, w.parentId ? jobLink(w.parentId) : "-"), el("td", { class: "nowrap" }, fmtDate(w.createdTime)))),
    { id: "workflows" }),
  ];
}

// ---- SLA ----

const MISSES = ["START_MISS", "END_MISS", "DURATION_MISS"];
const SLA_STATUSES = ["NOT_STARTED", "IN_PROCESS", "MET", "MISS"];

function slaFilter(q) {
  const parts = [];
  const event = q.get("event");
  if (event === "any") parts.push("sla_status=" + SLA_STATUSES.join(","));
  else parts.push("event_status=" + (event && MISSES.includes(event) ? event : MISSES.join(",")));
  if (q.get("app")) parts.push("app_name=" + q.get("app"));
  if (q.get("from")) parts.push("nominal_start=" + q.get("from"));
  if (q.get("to")) parts.push("nominal_end=" + q.get("to"));
  return parts.join(";");
}

async function slaView(parts, q) {
  const l = await getJSON("dashboard/api/sla", { order: "desc", len: 500, filter: slaFilter(q) });
  const form = el("form", { class: "filters", id: "sla-filter" },
    el("label", {}, "App", el("input", { name: "app", id: "f-app", value: q.get("app") || "", placeholder: "app name" })),
    el("label", {}, "Event", el("select", { name: "event", id: "f-event" }, el("option", { value: "" }, "any miss"),
      MISSES.map((m) => el("option", { value: m, selected: q.get("event") === m }, m)),
      el("option", { value: "any", selected: q.get("event") === "any" }, "all, met too"))),
    el("label", {}, "Nominal from", el("input", { name: "from", id: "f-from", value: q.get("from") || "", placeholder: "2026-01-01T00:00Z" })),
    el("label", {}, "to", el("input", { name: "to", id: "f-to", value: q.get("to") || "", placeholder: "2026-01-02T00:00Z" })),
    el("button", { type: "submit" }, "Filter"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const nq = new URLSearchParams();
    for (const [k, v] of new FormData(form).entries()) if (v) nq.set(k, v);
    location.hash = route(["sla"], nq);
  });
  const rows = l.slaSummaryList.map((s) => el("tr", { class: s.slaStatus === "MISS" ? "miss" : (s.slaStatus === "MET" ? "met" : "late"), "data-id": s.id },
    el("td", { class: "id" }, jobLink(s.id)), el("td", { class: "app" }, s.appName), el("td", {}, s.appType),
    el("td", {}, fmtDate(s.nominalTime)), el("td", {}, fmtDate(s.expectedEnd)), el("td", {}, fmtDate(s.actualEnd)),
    el("td", { class: "events" }, (s.eventStatus || "").replace(/,/g, ", ")), el("td", { class: "nowrap" }, delay(s.startDelay)),
    el("td", { class: "end-delay nowrap" }, delay(s.endDelay)), el("td", { class: "sla nowrap" }, s.slaStatus),
    el("td", { class: "nowrap" }, statusCell(s.jobStatus)),
    el("td", {}, s.consoleUrl ? extLink(s.consoleUrl, "YARN") : "-")));
  return [el("h2", {}, q.get("event") === "any" ? "SLA" : "SLA misses"), form,
    grid(["Job", "App", "Type", "Nominal", "Expected end", "Actual end", "Events", "Start delay", "End delay", "SLA", "Job status", "Console"],
      rows, { id: "misses" }),
    rows.length ? null : el("p", { id: "misses-empty", class: "muted" }, "No SLA misses match.")];
}

// ---- system ----

const SYSTEM = [["status", "Status"], ["servers", "Servers"], ["configuration", "Configuration"], ["metrics", "Metrics"],
  ["queue", "Queue"]];

function valueBlock(v) {
  if (Array.isArray(v)) {
    return v.length ? el("ul", {}, v.map((x) => el("li", {}, x !== null && typeof x === "object" ? Object.values(x).join(" ") : String(x))))
      : el("span", { class: "muted" }, "empty");
  }
  if (v !== null && typeof v === "object") {
    return kv(Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k] !== null && typeof v[k] === "object" && !Array.isArray(v[k])
      ? (Object.keys(v[k]).length <= 4 ? Object.entries(v[k]).map(([a, b]) => `${a}=${b}`).join(" ") : valueBlock(v[k]))
      : Array.isArray(v[k]) ? valueBlock(v[k]) : v[k]])));
  }
  return el("span", {}, String(v));
}

// metricsBlock shows admin/metrics: a table of each group (counters,
// gauges, histograms, timers), one metric a row.
function metricsBlock(m) {
  return Object.keys(m).sort().map((group) => [el("h3", {}, group),
    grid(["Metric", "Value"], Object.keys(m[group] || {}).sort().map((name) => {
      const v = m[group][name];
      const text = v !== null && typeof v === "object" ? Object.entries(v).map(([a, b]) => `${a}=${b}`).join("  ") : String(v);
      return el("tr", {}, el("td", { class: "id" }, name), el("td", {}, text));
    }), { class: "grid metrics" })]);
}

async function systemView(parts) {
  const page = parts[1] || "status";
  const nav = el("p", { class: "subnav" }, SYSTEM.map(([k, label]) =>
    el("a", { href: route(["system", k]), id: "system-" + k, class: k === page ? "active" : "" }, label)));
  let body;
  try {
    switch (page) {
      case "servers": {
        const s = await getJSON("v2/admin/available-oozie-servers");
        body = kv(Object.fromEntries(Object.entries(s).map(([k, v]) => [k, extLink(v)])), { id: "servers" });
        break;
      }
      case "configuration": body = valueBlock(await getJSON("v2/admin/configuration")); break;
      case "metrics": body = metricsBlock(await getJSON("v2/admin/metrics")); break;
      case "queue": {
        const d = await getJSON("v2/admin/queue-dump");
        body = [el("h3", {}, "Queued"), valueBlock(d.queueDump || []), el("h3", {}, "Unique"), valueBlock(d.uniqueMapDump || [])];
        break;
      }
      default: {
        const [st, b] = await Promise.all([getJSON("v2/admin/status"), getJSON("v2/admin/build-version")]);
        body = kv({ "System mode": statusCell(st.systemMode), "Build": b.buildVersion,
          "Authentication": state.auth === "kerberos" ? "Kerberos (SPNEGO)" : "simple (user.name)",
          "Console user": state.auth === "kerberos" ? "the browser's Kerberos principal" : (state.user || "anonymous") });
      }
    }
  } catch (err) {
    body = el("p", { class: "error" }, err.message);
  }
  return [el("h2", {}, "System: " + (SYSTEM.find(([k]) => k === page) || ["", page])[1]), nav,
    el("div", { class: "panel", id: "system-" + page + "-panel" }, body)];
}

// ---- main ----

const VIEWS = {
  workflows: (p, q) => listView("workflows", p, q),
  coordinators: (p, q) => listView("coordinators", p, q),
  bundles: (p, q) => listView("bundles", p, q),
  workflow: workflowView,
  coordinator: coordinatorView,
  bundle: bundleView,
  overview: overviewView,
  sla: slaView,
  system: systemView,
};

const NAV_OF = { workflow: "workflows", coordinator: "coordinators", bundle: "bundles" };

async function render() {
  const { parts, q } = parseHash();
  const name = VIEWS[parts[0]] ? parts[0] : "workflows";
  const seq = ++state.renders;
  document.body.dataset.loaded = "false";
  for (const a of document.querySelectorAll("#nav a")) a.classList.toggle("active", a.dataset.nav === (NAV_OF[name] || name));
  let content;
  try {
    content = await VIEWS[name](parts, q);
  } catch (err) {
    content = el("p", { class: "error", id: "view-error" }, err.message);
  }
  if (seq !== state.renders) return; // a newer render won
  $("view").replaceChildren(...[content].flat(Infinity).filter((c) => c !== null && c !== undefined));
  document.body.dataset.view = name;
  document.body.dataset.loaded = "true";
}

// detectAuth finds how the server authenticates: a request without
// credentials answered 401 with "WWW-Authenticate: Negotiate" means Kerberos
// (the browser negotiates); anything else is simple authentication, where
// the user field names the caller.
async function detectAuth() {
  const fromURL = new URLSearchParams(location.search).get("user.name");
  if (fromURL) localStorage.setItem(USER_KEY, fromURL);
  state.user = localStorage.getItem(USER_KEY) || "";
  try {
    const r = await fetch(ROOT + "v2/admin/status", { credentials: "omit", headers: { Accept: "application/json" } });
    if (r.status === 401 && /negotiate/i.test(r.headers.get("WWW-Authenticate") || "")) state.auth = "kerberos";
  } catch (_) { /* the pages will show the error */ }
  if (state.auth === "kerberos") {
    $("auth-kind").textContent = "Kerberos";
    return;
  }
  $("user-form").hidden = false;
  $("user-name").value = state.user;
}

function main() {
  $("user-form").addEventListener("submit", (e) => {
    e.preventDefault();
    state.user = $("user-name").value.trim();
    if (state.user) localStorage.setItem(USER_KEY, state.user); else localStorage.removeItem(USER_KEY);
    showMessage(state.user ? `Acting as ${state.user}.` : "Acting anonymously.", false);
    render();
  });
  $("refresh").addEventListener("click", () => render());
  const auto = $("auto-refresh");
  auto.checked = localStorage.getItem(REFRESH_KEY) === "on";
  auto.addEventListener("change", () => localStorage.setItem(REFRESH_KEY, auto.checked ? "on" : "off"));
  setInterval(() => {
    if (auto.checked && $("confirm").hidden && !$("action-log")) render();
  }, 10000);
  window.addEventListener("hashchange", () => { showMessage(""); render(); });
  detectAuth().then(render);
}

main();
