// The explorer page: feeds and their age, a coverage timeline, and the files of a range or a work_id.
// Plain JavaScript, no build step. Every API call goes to this page's own origin (the local runner,
// or scripts/explore.sh's signing proxy), so absolute URLs from the API (next, http_url) are turned
// into paths here. Values from the API are written with textContent only.
"use strict";

const HOUR = 3600000;
const DAY = 24 * HOUR;
/** Numbers up to this are seconds since the epoch, larger ones milliseconds, as the API reads them. */
const SECONDS_CUTOFF = 100000000000;
/** Years 1 to 9999, the times the API takes. */
const MIN_MS = -62135596800000;
const MAX_MS = 253402300799999;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const $ = (id) => document.getElementById(id);

const state = {
  feeds: [],        // [{what, where, latest, age_ms}]
  selected: null,   // "what:where"
  filesPages: [],   // the paths of the pages seen so far, for "Previous page"
  nextFiles: null,  // the path of the next page of files
  binWidth: DAY,    // the coverage step shown, in ms
  coverageOf: null, // the search whose coverage is shown
  filesOf: null,    // the search whose files are listed
  hash: null,       // the hash the page shows (the hashchange of a search's own hash is no news)
  asked: { files: 0, coverage: 0 }, // the number of each section's newest request: older answers are dropped
};

// ---- the API -------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The path and query of an API URL, to be asked of this page's own origin. */
function localPath(url) {
  const u = new URL(url, location.href);
  return u.pathname + u.search;
}

async function api(path) {
  let response;
  try {
    response = await fetch(localPath(path), { headers: { Accept: "application/json" } });
  } catch (e) {
    throw new ApiError(0, "Network", "The API did not answer; is the local runner or scripts/explore.sh running?");
  }
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    body = null;
  }
  if (!response.ok) {
    // API Gateway's whole answer to an unsigned request; its other 403s (a key not allowed, an expired
    // token) say what is wrong themselves.
    if (response.status === 403 && (!body || !body.message || body.message === "Forbidden")) {
      throw new ApiError(403, null, "The API answered 403 Forbidden: it takes signed requests only. "
        + "Open the page through scripts/explore.sh, which signs them with your AWS credentials.");
    }
    const code = body && body.code ? body.code : "HTTP " + response.status;
    const message = body && body.message ? body.message : "The API answered " + response.status + ".";
    throw new ApiError(response.status, code, message);
  }
  return body;
}

function query(params) {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") {
      q.set(name, value);
    }
  }
  return q.toString();
}

// ---- formatting ------------------------------------------------------------------------------------

/** The one format of a time on this page: "2026-01-01 06:00:00Z" (milliseconds shown when not 0). */
function iso(ms) {
  if (ms === null || ms === undefined) {
    return "";
  }
  return new Date(ms).toISOString().replace(".000Z", "Z").replace("T", " ");
}

/** "1 file", "2 files". */
function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

function age(ms) {
  if (ms < 60000) {
    return "now";
  }
  const d = Math.floor(ms / DAY);
  const h = Math.floor((ms % DAY) / HOUR);
  const m = Math.floor((ms % HOUR) / 60000);
  if (d > 0) {
    return d + " d " + h + " h";
  }
  return h > 0 ? h + " h " + m + " min" : m + " min";
}

function bytes(n) {
  if (n === null || n === undefined) {
    return "";
  }
  const units = ["B", "KB", "MB", "GB", "TB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return (i === 0 ? v : v.toFixed(1)) + " " + units[i];
}

/**
 * Milliseconds from "now", a number, or ISO-8601 text (UTC when no zone is given), read as the API and the
 * datalake client read them: a number up to 100,000,000,000 is seconds, a larger one milliseconds. NaN if
 * none, or outside the years 1 to 9999.
 */
function parseTime(text, fallback) {
  const t = (text || "").trim();
  if (t === "") {
    return fallback;
  }
  let ms;
  if (t.toLowerCase() === "now") {
    ms = Date.now();
  } else if (NUMBER.test(t)) {
    const n = Number(t);
    // to whole microseconds, then towards zero, as the API does
    ms = Math.trunc(Math.round(n <= SECONDS_CUTOFF ? n * 1e6 : n * 1e3) / 1e3);
  } else {
    const zoned = /([zZ]|[+-]\d\d:?\d\d)$/.test(t) || /^\d{4}-\d\d-\d\d$/.test(t) ? t : t + "Z";
    ms = Date.parse(zoned.replace(" ", "T"));
  }
  return ms >= MIN_MS && ms <= MAX_MS ? ms : NaN;
}

/** A time as the page sends it: ISO-8601, which no reader takes for seconds (the hash too). */
function isoParam(ms) {
  return new Date(ms).toISOString();
}

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) {
    td.className = className;
  }
  row.appendChild(td);
  return td;
}

function setStatus(text, isError) {
  const status = $("status");
  status.textContent = text;
  status.className = isError ? "error" : "";
}

function report(error) {
  setStatus(error instanceof ApiError ? error.message + (error.code && error.status >= 400
    ? " (" + error.code + ")" : "") : String(error), true);
}

// ---- feeds -----------------------------------------------------------------------------------------

function staleAfterMs() {
  const hours = Number($("stale-hours").value);
  return Number.isFinite(hours) && hours >= 0 ? hours * HOUR : 24 * HOUR;
}

async function loadFeeds() {
  const feeds = [];
  let path = "/v0/archive/feeds/";
  try {
    while (path) {
      const page = await api(path);
      feeds.push(...page.feeds);
      path = page.next;
    }
  } catch (e) {
    if (e instanceof ApiError && e.code === "NoLatestTable") {
      $("feeds-summary").textContent = "This API keeps no latest table: search by what instead.";
      return;
    }
    throw e;
  }
  // Oldest first: the feeds that stopped arriving are the ones to look at.
  feeds.sort((a, b) => b.age_ms - a.age_ms || a.what.localeCompare(b.what) || a.where.localeCompare(b.where));
  state.feeds = feeds;
  renderFeeds();
}

function renderFeeds() {
  const limit = staleAfterMs();
  const filter = $("feeds-filter").value.trim().toLowerCase();
  const body = document.createDocumentFragment();
  let stale = 0;
  let shown = 0;
  for (const feed of state.feeds) {
    const isStale = feed.age_ms > limit;
    if (isStale) {
      stale++;
    }
    if (filter && !feed.what.includes(filter) && !feed.where.includes(filter)) {
      continue;
    }
    shown++;
    const key = feed.what + ":" + feed.where;
    const row = document.createElement("tr");
    row.dataset.feed = key;
    row.className = (isStale ? "stale" : "live") + (key === state.selected ? " selected" : "");
    const what = document.createElement("td");
    const open = document.createElement("button");
    open.type = "button";
    open.className = "feed-link";
    open.textContent = feed.what;
    open.dataset.what = feed.what;
    open.dataset.where = feed.where;
    open.setAttribute("aria-label", "show " + feed.what + " from " + feed.where);
    what.appendChild(open);
    row.appendChild(what);
    cell(row, feed.where);
    const metadata = feed.latest.metadata;
    cell(row, iso(metadata.end === null ? metadata.start : metadata.end));
    cell(row, age(feed.age_ms), "num");
    const status = cell(row, "");
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = isStale ? "stale" : "live";
    status.appendChild(badge);
    body.appendChild(row);
  }
  const tbody = $("feeds").tBodies[0];
  tbody.replaceChildren(body);
  $("feeds-summary").textContent = plural(state.feeds.length, "feed") + ", " + stale + " stale"
    + (shown < state.feeds.length ? ", " + shown + " shown" : "");
}

// ---- the selection: a feed, a range, or a work_id ----------------------------------------------------

function selection() {
  const end = parseTime($("q-end").value, Date.now());
  const start = parseTime($("q-start").value, end - 7 * DAY);
  return {
    what: $("q-what").value.trim(),
    where: $("q-where").value.trim(),
    workId: $("q-work-id").value.trim(),
    start,
    end,
    step: $("q-step").value,
  };
}

function showFeed(what, where) {
  $("q-what").value = what;
  $("q-where").value = where;
  $("q-work-id").value = "";
  search();
}

const SLUG = /^[a-z0-9_-]+$/;

/**
 * Our own sentence for a what, where or work_id no file can have (the form does not use the browser's
 * validation, whose bubble left the previous error standing); null when all three can be.
 */
function invalidField(s) {
  for (const [id, name, value] of [["q-what", "what", s.what], ["q-where", "where", s.where],
    ["q-work-id", "work_id", s.workId]]) {
    const bad = value !== "" && !SLUG.test(value);
    $(id).setAttribute("aria-invalid", bad ? "true" : "false");
    if (bad) {
      const lower = value.toLowerCase();
      return { id, text: name + " holds only lower-case letters, digits, - and _, so no file has \u201c" + value + "\u201d"
        + (SLUG.test(lower) ? ": did you mean \u201c" + lower + "\u201d?" : ".") };
    }
  }
  return null;
}

/**
 * A search that cannot run says why; the hash's (which the address now names) also takes away the results of
 * the search before it, and drops its answers still on the way.
 */
function refuse(text, fieldId, fromHash) {
  setStatus(text, true);
  if (fieldId) {
    $(fieldId).focus();
  }
  if (fromHash) {
    dropCoverage();
    dropFiles();
  }
}

/** The query of search s: its what and where, and its work_id or its start and end (ISO-8601). */
function searchParams(s) {
  return { what: s.what, where: s.where, work_id: s.workId, start: s.workId ? "" : isoParam(s.start),
    end: s.workId ? "" : isoParam(s.end) };
}

/** Marks the row of the feed selected (none when state.selected is null). */
function markSelected() {
  for (const row of $("feeds").tBodies[0].rows) {
    row.classList.toggle("selected", row.dataset.feed === state.selected);
  }
}

/** Runs the form's search; fromHash: it is the hash's, which it rewrites in the page's form, adding no history. */
async function search(fromHash) {
  const s = selection();
  if (!s.what) {
    refuse("Give a what (or pick a feed).", "q-what", fromHash);
    return;
  }
  const invalid = invalidField(s);
  if (invalid) {
    refuse(invalid.text, invalid.id, fromHash);
    return;
  }
  if (!s.workId && (Number.isNaN(s.start) || Number.isNaN(s.end))) {
    refuse("Give start and end as ISO-8601 times (2026-01-01T00:00Z), or as seconds or milliseconds since 1970,"
      + " in the years 1 to 9999.", null, fromHash);
    return;
  }
  state.selected = s.where ? s.what + ":" + s.where : null;
  markSelected();
  state.hash = query({ ...searchParams(s), step: s.step === "auto" ? "" : s.step });
  if (fromHash) {
    history.replaceState(null, "", "#" + state.hash);
  } else {
    location.hash = state.hash;
  }
  setStatus("");
  const jobs = [loadFiles("/v0/archive/files/?" + query(searchParams(s)), [], s)];
  if (s.workId) {
    dropCoverage();
  } else {
    jobs.push(loadCoverage(s));
  }
  try {
    await Promise.all(jobs);
  } catch (e) {
    report(e);
  }
}

// ---- coverage ----------------------------------------------------------------------------------------

function stepFor(s) {
  if (s.step !== "auto") {
    return s.step;
  }
  return s.end - s.start <= 4 * DAY ? "hour" : "day";
}

/** Hides the timeline, and drops the answers to its requests still on the way. */
function dropCoverage() {
  state.asked.coverage++;
  $("coverage-section").hidden = true;
  $("skip-timeline").hidden = true;
}

/** The coverage of search s; an answer, or a failure, that comes after a newer request is dropped. */
async function loadCoverage(s) {
  const asked = ++state.asked.coverage;
  let coverage;
  try {
    coverage = await api("/v0/archive/coverage/?" + query({ ...searchParams(s), step: stepFor(s) }));
  } catch (e) {
    if (asked === state.asked.coverage) {
      dropCoverage(); // not the previous search's timeline under this one's error
      throw e;
    }
    return;
  }
  if (asked === state.asked.coverage) {
    renderCoverage(s, coverage);
  }
}

function renderCoverage(s, coverage) {
  const width = coverage.step === "hour" ? HOUR : DAY;
  const max = Math.max(1, ...coverage.bins.map((b) => b.files));
  const bins = document.createDocumentFragment();
  const gaps = [];
  let files = 0;
  for (const bin of coverage.bins) {
    files += bin.files;
    const el = document.createElement("button");
    el.type = "button";
    el.className = bin.files === 0 ? "bin gap" : "bin";
    el.dataset.start = bin.start;
    el.dataset.files = bin.files;
    el.setAttribute("role", "listitem");
    el.style.height = bin.files === 0 ? "100%" : Math.max(8, Math.round(100 * bin.files / max)) + "%";
    el.title = iso(bin.start) + ": " + plural(bin.files, "file") + ", " + bytes(bin.bytes);
    el.setAttribute("aria-label", el.title);
    // One tab stop for the whole timeline (the first bar); the arrow keys move between the bars.
    el.tabIndex = bins.childNodes.length === 0 ? 0 : -1;
    bins.appendChild(el);
    if (bin.files === 0) {
      // Only the part of the bin within the search was counted: the first and last bins may reach beyond.
      const gapStart = Math.max(bin.start, s.start);
      const gapEnd = Math.min(bin.start + width, s.end);
      const last = gaps[gaps.length - 1];
      if (last && last.end === gapStart) {
        last.end = gapEnd;
      } else {
        gaps.push({ start: gapStart, end: gapEnd });
      }
    }
  }
  state.binWidth = width;
  state.coverageOf = s;
  $("timeline").replaceChildren(bins);
  const from = coverage.bins.length ? coverage.bins[0].start : s.start;
  renderAxis(from, coverage.bins.length ? coverage.bins[coverage.bins.length - 1].start + width : s.end);
  const list = document.createDocumentFragment();
  for (const gap of gaps) {
    const item = document.createElement("li");
    item.className = "gap-range";
    item.dataset.start = gap.start;
    item.dataset.end = gap.end;
    item.textContent = "no files from " + iso(gap.start) + " to " + iso(gap.end);
    list.appendChild(item);
  }
  $("gaps").replaceChildren(list);
  $("coverage-title").textContent = "Coverage of " + s.what + (s.where ? " from " + s.where : "");
  $("coverage-summary").textContent = plural(coverage.bins.length, coverage.step) + ", "
    + plural(gaps.length, "gap") + " (a file counts in every " + coverage.step
    + " it touches; select a bar to list its files)";
  $("coverage-section").hidden = false;
  $("skip-timeline").hidden = false;
}

/** Steps between axis labels: the first that gives at most seven labels. */
const TICKS = [HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY, 91 * DAY,
  364 * DAY];

/** Labels at regular intervals (whole hours or days, UTC) along the timeline from start to end. */
function renderAxis(start, end) {
  const span = Math.max(1, end - start);
  const step = TICKS.find((t) => span / t <= 7) || TICKS[TICKS.length - 1];
  const ticks = document.createDocumentFragment();
  // A label reads to the right of its mark: none is put where it would not fit (the last eighth).
  for (let t = Math.ceil(start / step) * step; t < start + span * 0.88; t += step) {
    const percent = 100 * (t - start) / span;
    const tick = document.createElement("span");
    tick.className = "tick";
    tick.dataset.time = t;
    tick.style.left = percent + "%";
    tick.textContent = iso(t);
    ticks.appendChild(tick);
  }
  $("timeline-axis").replaceChildren(ticks);
}

/** Arrow keys, Home and End move the focus (and the one tab stop) between the timeline's bars. */
function moveInTimeline(e) {
  const bars = Array.from($("timeline").querySelectorAll(".bin"));
  const at = bars.indexOf(document.activeElement);
  if (at < 0) {
    return;
  }
  const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0,
    End: bars.length - 1 }[e.key];
  if (to === undefined) {
    return;
  }
  e.preventDefault();
  focusBar(bars[Math.max(0, Math.min(bars.length - 1, to))]);
}

function focusBar(bar) {
  if (!bar) {
    return;
  }
  for (const other of $("timeline").querySelectorAll(".bin[tabindex='0']")) {
    other.tabIndex = -1;
  }
  bar.tabIndex = 0;
  bar.focus();
}

/** The files a bar counts: those touching its part of the search that drew it (the form may hold another). */
function showBin(bin) {
  const s = state.coverageOf;
  const binStart = Number(bin.dataset.start);
  const start = Math.max(binStart, s.start);
  const end = Math.min(binStart + state.binWidth - 1, s.end);
  loadFiles("/v0/archive/files/?" + query({ what: s.what, where: s.where, start: isoParam(start),
    end: isoParam(end) }), [], s)
    .catch(report);
}

// ---- files -------------------------------------------------------------------------------------------

/** Hides the files and forgets their pages, and drops the answers to their requests still on the way. */
function dropFiles() {
  state.asked.files++;
  $("files-section").hidden = true;
  state.nextFiles = null;
  state.filesPages = [];
}

/** A page of files of the search "of"; an answer, or a failure, that comes after a newer request is dropped. */
async function loadFiles(path, previous, of) {
  const asked = ++state.asked.files;
  let page;
  try {
    page = await api(path);
  } catch (e) {
    if (asked === state.asked.files) {
      dropFiles();
      throw e;
    }
    return;
  }
  if (asked === state.asked.files) {
    state.filesPages = previous.concat([path]);
    state.filesOf = of;
    renderFiles(page);
  }
}

function renderFiles(page) {
  const rows = document.createDocumentFragment();
  // The API pages by day bucket and key; within a page, time order reads better.
  const records = page.records.slice().sort((a, b) => a.metadata.start - b.metadata.start);
  for (const record of records) {
    const m = record.metadata;
    const row = document.createElement("tr");
    row.dataset.id = m.id;
    cell(row, m.id);
    cell(row, m.where);
    cell(row, iso(m.start));
    cell(row, iso(m.end));
    cell(row, bytes(record.size), "num");
    cell(row, m.work_id === null ? "" : m.work_id);
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = m.path;
    const pre = document.createElement("pre");
    pre.textContent = JSON.stringify(Object.assign({ url: record.url, create_time: record.create_time }, m), null, 2);
    details.append(summary, pre);
    cell(row, "").appendChild(details);
    const link = document.createElement("a");
    // Through this page's origin, so that the proxy signs it; the API answers 302 to S3.
    link.href = "/v0/archive/files/" + encodeURIComponent(m.id) + "/data";
    link.className = "download";
    link.textContent = "download";
    link.setAttribute("download", m.id);
    cell(row, "").appendChild(link);
    rows.appendChild(row);
  }
  $("files").tBodies[0].replaceChildren(rows);
  state.nextFiles = page.next ? localPath(page.next) : null;
  const number = state.filesPages.length;
  const of = state.filesOf;
  // A work_id search keeps the where of an opened feed: an empty answer says so, with the way out.
  const narrowed = page.records.length === 0 && of.workId !== "" && of.where !== "";
  $("files-summary").textContent = page.records.length === 0
    ? "no files of " + of.what + (of.where ? " from " + of.where : "") + (of.workId ? " with work_id " + of.workId : "")
    : "page " + number + ": " + plural(page.records.length, "file") + (page.next ? ", more follow" : "");
  $("files-any-where").hidden = !narrowed;
  $("files-next").disabled = !page.next;
  $("files-prev").disabled = number <= 1;
  $("files-section").hidden = false;
}

function nextFiles() {
  if (state.nextFiles) {
    loadFiles(state.nextFiles, state.filesPages, state.filesOf).catch(report);
  }
}

function previousFiles() {
  if (state.filesPages.length > 1) {
    const pages = state.filesPages.slice(0, -1);
    loadFiles(pages[pages.length - 1], pages.slice(0, -1), state.filesOf).catch(report);
  }
}

// ---- wiring ------------------------------------------------------------------------------------------

/** A time from a link as the form shows it; text that is no time stays as it is, for search() to name. */
function formTime(text) {
  const ms = parseTime(text, NaN);
  return Number.isNaN(ms) ? text : iso(ms).replace(" ", "T");
}

/** Fills the form from the URL's hash (a link, Back, Forward); false when the hash holds no search. */
function restoreFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const value = (name) => params.get(name) || "";
  $("q-what").value = value("what");
  $("q-where").value = value("where");
  $("q-work-id").value = value("work_id");
  $("q-start").value = formTime(value("start"));
  $("q-end").value = formTime(value("end"));
  $("q-step").value = ["hour", "day"].includes(value("step")) ? value("step") : "auto";
  return value("what") !== "";
}

/** The search of the URL's hash, or none (Back to the page as it opened). */
function showHash() {
  state.hash = location.hash.slice(1);
  if (restoreFromHash()) {
    search(true);
    return;
  }
  state.selected = null;
  markSelected();
  dropCoverage();
  // its pages stay: n and p page on from the page shown before
  state.asked.files++;
  $("files-section").hidden = true;
  setStatus("");
}

/** The stale threshold chosen last time; null when none, or when the browser keeps nothing for the page. */
function savedStaleHours() {
  try {
    return localStorage.getItem("datalake.staleHours");
  } catch (e) {
    return null; // cookies and site data blocked: reading localStorage throws
  }
}

function saveStaleHours(value) {
  try {
    localStorage.setItem("datalake.staleHours", value);
  } catch (e) {
    // blocked or full: the threshold holds until the page is closed
  }
}

function init() {
  const saved = savedStaleHours();
  if (saved !== null) {
    $("stale-hours").value = saved;
  }
  $("search").addEventListener("submit", (e) => {
    e.preventDefault();
    search();
  });
  $("stale-hours").addEventListener("input", () => {
    saveStaleHours($("stale-hours").value);
    renderFeeds();
  });
  $("feeds-filter").addEventListener("input", renderFeeds);
  // One listener per table, not one per row: thousands of rows stay cheap.
  $("feeds").addEventListener("click", (e) => {
    const open = e.target.closest(".feed-link");
    if (open) {
      showFeed(open.dataset.what, open.dataset.where);
    }
  });
  $("timeline").addEventListener("click", (e) => {
    const bin = e.target.closest(".bin");
    if (bin) {
      showBin(bin);
    }
  });
  $("timeline").addEventListener("keydown", moveInTimeline);
  $("skip-timeline").addEventListener("click", () => focusBar($("timeline").querySelector(".bin[tabindex='0']")));
  $("files-any-where").addEventListener("click", () => {
    $("q-where").value = "";
    search();
  });
  $("files-next").addEventListener("click", nextFiles);
  $("files-prev").addEventListener("click", previousFiles);
  document.addEventListener("keydown", (e) => {
    const typing = e.target.closest("input, select, textarea");
    if (typing || e.ctrlKey || e.metaKey || e.altKey) {
      return;
    }
    if (e.key === "/") {
      e.preventDefault();
      $("q-what").focus();
    } else if (e.key === "f") {
      const first = document.querySelector("#feeds .feed-link");
      if (first) {
        first.focus();
      }
    } else if (e.key === "t" && !$("coverage-section").hidden) {
      focusBar($("timeline").querySelector(".bin[tabindex='0']"));
    } else if (e.key === "n") {
      nextFiles();
    } else if (e.key === "p") {
      previousFiles();
    }
  });
  window.addEventListener("hashchange", () => {
    if (location.hash.slice(1) !== state.hash) {
      showHash();
    }
  });
  loadFeeds().catch(report);
  if (location.hash.length > 1) {
    showHash();
  }
}

init();
