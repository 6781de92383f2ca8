// The page of `pml serve`: it sends the form to the server and shows what comes
// back. Every request carries the run's token from the page's URL.
"use strict";
(() => {
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  let upload = null; // {upload, name, columns}
  let result = null; // {design_id, design, table, report, fromFile}
  let running = null; // the name of the design being computed
  let timer = null;

  const source = () => document.querySelector("input[name=source]:checked").value;
  const status = (text) => { $("status").textContent = text; };
  function showError(message) {
    $("error").textContent = message || "";
    $("error").hidden = !message;
  }

  // POSTs JSON (or a FormData); an answer other than 2xx throws its one-line error.
  async function call(path, body) {
    const json = !(body instanceof FormData);
    const headers = { "X-PML-Token": token };
    if (json) headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method: "POST", headers, credentials: "same-origin",
      body: json ? JSON.stringify(body) : body,
    });
    if (!response.ok) {
      let message = `the server answered HTTP ${response.status}`;
      try { message = (await response.json()).error || message; } catch (_) { /* not JSON */ }
      throw new Error(message);
    }
    return response;
  }

  function download(name, blob) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  function showSource() {
    const file = source() === "file";
    $("file-source").hidden = !file;
    $("counts-source").hidden = file;
  }

  async function uploadFile() {
    const file = $("file").files[0];
    if (!file) return;
    showError("");
    status(`Uploading ${file.name} ...`);
    upload = null;
    $("column").disabled = true;
    const form = new FormData();
    form.append("file", file);
    try {
      upload = await (await call("api/upload", form)).json();
      const select = $("column");
      select.replaceChildren(...upload.columns.map((c) => new Option(c, c)));
      select.disabled = false;
      status(`${upload.name}: ${upload.columns.length} columns. Pick the column; the design follows.`);
      schedule();
    } catch (e) {
      status("");
      showError(e.message);
    }
  }

  // The request of the form, or an error message.
  function request() {
    const eps = $("eps").value.trim();
    if (eps === "" || !Number.isFinite(Number(eps))) {
      return "invalid --epsilon: give the privacy level as a number >= 0, e.g. 1";
    }
    const body = {
      epsilon: Number(eps), notion: $("notion").value, utility: $("utility").value,
      tradeoff: $("tradeoff").checked,
    };
    const delta = $("delta").value.trim();
    if (delta !== "") body.delta = Number(delta);
    if (source() === "file") {
      if (!upload) return "upload a CSV or Parquet file first (or paste counts)";
      body.upload = upload.upload;
      body.column = $("column").value;
    } else {
      if ($("counts").value.trim() === "") return "paste the counts first, e.g. 40, 20, 20, 20";
      body.counts = $("counts").value;
    }
    return body;
  }

  function certificateLine(table) {
    const line = table.split("\n").find((l) => l.trim().startsWith("Certificate"));
    return line ? line.trim() : null;
  }

  function show(r, fromFile) {
    const d = JSON.parse(r.design);
    result = { ...r, fromFile };
    const line = certificateLine(r.table);
    const cert = $("certificate");
    cert.textContent = `${line || "Certificate: see the report"} (status: ${d.status})`;
    cert.dataset.status = d.status;
    $("table").textContent = r.table;
    $("report").srcdoc = r.report;
    $("private-actions").hidden = !fromFile;
    $("result").hidden = false;
  }

  async function design() {
    clearTimeout(timer);
    const body = request();
    if (typeof body === "string") { showError(body); return; }
    if (running) cancel();
    body.job = `job-${Date.now()}-${Math.floor(Math.random() * 1e9)}`;
    running = body.job;
    $("cancel").disabled = false;
    showError("");
    status("Designing and certifying ...");
    try {
      const r = await (await call("api/design", body)).json();
      if (running !== body.job) return;
      show(r, source() === "file");
      status("Done: the report below is up to date.");
    } catch (e) {
      if (running === body.job) { status(""); showError(e.message); }
    } finally {
      if (running === body.job) { running = null; $("cancel").disabled = true; }
    }
  }

  function cancel() {
    if (!running) return;
    const job = running;
    running = null;
    $("cancel").disabled = true;
    status("Cancelled.");
    call("api/cancel", { job }).catch((e) => showError(e.message));
  }

  // A change of the form designs again after a short pause.
  function schedule() {
    clearTimeout(timer);
    if (typeof request() !== "string") timer = setTimeout(design, 600);
  }

  async function privatised() {
    if (!result) return;
    showError("");
    status("Privatising the file ...");
    try {
      const response = await call("api/privatise", { design: result.design_id, seed: $("seed").value });
      const disposition = response.headers.get("Content-Disposition") || "";
      const name = (disposition.match(/filename="([^"]+)"/) || [])[1] || "private.csv";
      download(name, await response.blob());
      status(`Downloaded ${name}.`);
      const warning = response.headers.get("X-Pml-Warning");
      if (warning) showError(`Warning: ${warning}`);
    } catch (e) {
      status("");
      showError(e.message);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const r of document.querySelectorAll("input[name=source]")) {
      r.addEventListener("change", () => { showSource(); schedule(); });
    }
    $("file").addEventListener("change", uploadFile);
    $("eps-slider").addEventListener("input", () => { $("eps").value = $("eps-slider").value; schedule(); });
    $("eps").addEventListener("input", () => { $("eps-slider").value = $("eps").value; schedule(); });
    for (const id of ["column", "delta", "notion", "utility", "tradeoff", "counts"]) {
      $(id).addEventListener("change", schedule);
    }
    $("form").addEventListener("submit", (e) => { e.preventDefault(); design(); });
    $("cancel").addEventListener("click", cancel);
    $("download-design").addEventListener("click", () => {
      download("design.json", new Blob([result.design], { type: "application/json" }));
    });
    $("download-report").addEventListener("click", () => {
      download("report.html", new Blob([result.report], { type: "text/html" }));
    });
    $("download-private").addEventListener("click", privatised);
    showSource();
  });
})();
