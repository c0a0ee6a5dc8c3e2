// The replay page.  The server checks the record (as data: pacific_common.record.from_json), plays it
// back, and keeps the positions; this page fetches the public board of whichever step is shown.
"use strict";

const slider = document.getElementById("slider");
let replay = null;
let shown = -1;
let wanted = 0;

async function open(text) {
  document.getElementById("error").textContent = "";
  document.body.dataset.state = "loading";
  try {
    replay = await request("POST", "/api/replays", text);
  } catch (error) {
    document.getElementById("error").textContent = error.message;
    document.body.dataset.state = "error";
    return;
  }
  slider.max = String(replay.steps - 1);
  document.getElementById("viewer").hidden = false;
  document.getElementById("verdict").textContent = replay.result === null
    ? "The record stops before the end of the game." : `Result: ${replay.result.verdict}`;
  shown = -1;
  await go(0);
}

// Steps are fetched one at a time; a quick scrub asks only for where the slider ends up.
async function go(step) {
  wanted = Math.max(0, Math.min(replay.steps - 1, step));
  slider.value = String(wanted);
  if (document.body.dataset.state === "busy") return;
  document.body.dataset.state = "busy";
  try {
    while (shown !== wanted) {
      const target = wanted;
      const view = await request("GET", `/api/replays/${encodeURIComponent(replay.id)}/${target}`);
      document.getElementById("board").innerHTML = view.board;
      document.getElementById("text").textContent = view.text;
      const last = replay.steps - 1;
      document.getElementById("position").textContent = `step ${target} of ${last}`;
      const before = target > 0 ? replay.actions[target - 1] : null;
      const next = target < last ? replay.actions[target] : null;
      document.getElementById("played").textContent =
        (before ? `Played: ${before.who}: ${before.words}.` : "The start of the game.")
        + (next ? `  Next: ${next.who}: ${next.words}.` : "  The end of the record.");
      shown = target;
    }
  } catch (error) {
    document.getElementById("error").textContent = error.message;
  }
  document.body.dataset.state = shown === replay.steps - 1 ? "end" : "shown";
  document.body.dataset.step = String(shown);
}

document.getElementById("file").addEventListener("change", async event => {
  const file = event.target.files[0];
  if (file) await open(await file.text());
});
document.getElementById("open").addEventListener("click", () => open(document.getElementById("paste").value));
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("back").addEventListener("click", () => go(wanted - 1));
document.getElementById("forward").addEventListener("click", () => go(wanted + 1));
document.getElementById("last").addEventListener("click", () => go(replay.steps - 1));
slider.addEventListener("input", () => go(Number(slider.value)));
document.addEventListener("keydown", event => {
  if (replay === null || event.target.tagName === "TEXTAREA") return;
  if (event.key === "ArrowRight") go(wanted + 1);
  if (event.key === "ArrowLeft") go(wanted - 1);
});
