// The home page: the options on offer come from /api/options; the server checks them again.
"use strict";

const form = document.getElementById("options");
const fields = {};
for (const name of ["game", "variant", "players", "seat", "against", "max_turns"]) fields[name] = document.getElementById(name);
let offered = null;

function fill(select, values, chosen) {
  select.replaceChildren(...values.map(v => element("option", String(v), { value: String(v) })));
  if (chosen !== undefined) select.value = String(chosen);
}

function gameChanged() {
  const game = offered.games[fields.game.value];
  fill(fields.variant, game.variants);
  fill(fields.players, game.players, game.players.includes(2) ? 2 : game.default_players);
  playersChanged();
}

function playersChanged() {
  const count = Number(fields.players.value);
  fill(fields.seat, [...Array(count).keys()], 0);
}

form.addEventListener("submit", async event => {
  event.preventDefault();
  document.getElementById("error").textContent = "";
  const body = {};
  for (const [name, field] of Object.entries(fields)) if (field.value !== "") body[name] = field.value;
  try {
    const game = await request("POST", "/api/games", body);
    window.location.href = `/play/${game.id}`;
  } catch (error) {
    document.getElementById("error").textContent = error.message;
  }
});

(async () => {
  offered = await request("GET", "/api/options");
  fill(fields.game, Object.keys(offered.games), offered.default_game);
  document.getElementById("agents").replaceChildren(
    ...offered.against.concat(["mcts:200"]).map(a => element("option", null, { value: a })));
  fields.against.value = offered.default_against;
  fields.game.addEventListener("change", gameChanged);
  fields.players.addEventListener("change", playersChanged);
  gameChanged();
  document.body.dataset.ready = "yes";
})().catch(error => { document.getElementById("error").textContent = error.message; });
