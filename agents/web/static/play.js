// The game page.  The server holds the game; this page shows the seat's view it sends, offers the
// legal actions it lists (by their places on the board, or as buttons), and asks the server to play
// the machines' moves one at a time, pausing between them so that a person can follow.
"use strict";

const gameId = decodeURIComponent(window.location.pathname.split("/").pop());
const api = `/api/games/${encodeURIComponent(gameId)}`;
const board = document.getElementById("board");
const menu = document.getElementById("menu");
let revealMs = 600;
let byPlace = new Map();   // place id -> the legal actions played by clicking it
let version = 0;           // views shown so far, for whoever waits on the page (the tests)
let pending = null;        // the timer of the next machine move: one at a time
const TITLES = { makabana: "Maka Bana", makemake: "Make Make", maunakea: "Mauna Kea" };

function setState(state) { document.body.dataset.state = state; }

function show(view) {
  hideMenu();
  document.getElementById("error").textContent = "";
  document.getElementById("title").textContent =
    `${TITLES[view.game]} (${view.variant}), ${view.num_players} players: you are player ${view.seat}`;
  board.innerHTML = view.board;
  document.getElementById("text").textContent = view.text;

  const log = document.getElementById("log");
  log.replaceChildren(...view.log.map(entry =>
    element("li", `${entry.who}: ${entry.words}`, entry.player === view.seat ? { class: "you" } : {})));
  log.scrollTop = log.scrollHeight;

  byPlace = new Map();
  const buttons = [];
  for (const choice of view.choices) {
    const place = choice.place === null ? null : board.querySelector(`[id="${CSS.escape(choice.place)}"]`);
    if (place === null) {
      buttons.push(actionButton(choice));
    } else {
      if (!byPlace.has(choice.place)) byPlace.set(choice.place, []);
      byPlace.get(choice.place).push(choice);
      place.classList.add("legal");
    }
  }
  document.getElementById("controls").replaceChildren(...buttons);

  const status = document.getElementById("status");
  if (view.over) {
    status.textContent = "Game over.";
    showResult(view);
    setState("over");
  } else if (view.to_act === view.seat) {
    status.textContent = "Your move: " + (byPlace.size ? "click a highlighted place on the board" : "choose below")
      + (byPlace.size && buttons.length ? ", or choose below." : ".");
    setState("human");
  } else {
    status.textContent = `${view.players[view.to_act]} is thinking…`;
    setState("machine");
    window.clearTimeout(pending);
    pending = window.setTimeout(advance, revealMs);
  }
  version += 1;
  document.body.dataset.version = String(version);
}

function actionButton(choice) {
  const button = element("button", choice.name, { type: "button", "data-action": String(choice.action) });
  button.addEventListener("click", () => play(choice.action));
  return button;
}

function showResult(view) {
  const result = view.result;
  document.getElementById("result").hidden = false;
  document.getElementById("verdict").textContent = result.verdict;
  const rows = [element("tr")];
  rows[0].append(element("th", "player"), element("th", "score"), element("th", "place"), element("th", "reward"));
  view.players.forEach((name, p) => {
    const row = element("tr");
    row.append(element("td", name), element("td", String(result.scores[p])), element("td", String(result.ranks[p])),
               element("td", String(result.rewards[p])));
    rows.push(row);
  });
  document.getElementById("scores").replaceChildren(...rows);
  document.getElementById("save").href = `${api}/record`;
}

function hideMenu() { menu.hidden = true; menu.replaceChildren(); }

// Several actions on one place (a tile's rotations on a field, say): a small menu of their names.
function showMenu(choices, event) {
  const box = menu.parentElement.getBoundingClientRect();
  menu.replaceChildren(...choices.map(actionButton));
  const cancel = element("button", "cancel", { type: "button" });
  cancel.addEventListener("click", hideMenu);
  menu.append(cancel);
  menu.style.left = `${event.clientX - box.left + 8}px`;
  menu.style.top = `${event.clientY - box.top + 8}px`;
  menu.hidden = false;
}

// The place under the pointer, also where a piece lies on it (a token on a territory): the topmost
// element under the pointer that is a place or lies inside one.
function placeAt(event) {
  for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (!board.contains(node)) continue;
    const place = node.closest(".place");
    if (place !== null) return place;
  }
  return null;
}

board.addEventListener("click", event => {
  const place = placeAt(event);
  const choices = place === null ? undefined : byPlace.get(place.id);
  if (document.body.dataset.state !== "human" || choices === undefined) {
    hideMenu();  // not a place to act on now: nothing happens
    return;
  }
  if (choices.length === 1) play(choices[0].action);
  else showMenu(choices, event);
});

async function play(action) {
  setState("busy");
  hideMenu();
  try {
    show(await request("POST", `${api}/act`, { action: action }));
  } catch (error) {
    document.getElementById("error").textContent = error.message;
    await refresh();
  }
}

async function advance() {
  try {
    show(await request("POST", `${api}/advance`));
  } catch (error) {
    document.getElementById("error").textContent = error.message;
    if (error.status === 409) await refresh();  // the page was behind the game: catch up
  }
}

async function refresh() {
  show(await request("GET", api));
}

(async () => {
  const options = await request("GET", "/api/options");
  revealMs = options.reveal_ms;
  await refresh();
})().catch(error => { document.getElementById("error").textContent = error.message; setState("error"); });
