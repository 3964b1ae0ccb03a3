// formosa serve: the lobby ("/") and the table ("/play/<id>").
// The server sends each seat's view (picture, legal moves, log); this page draws it, turns
// the picture's data-action elements of the legal moves into click targets, and polls
// while an agent thinks. Every move names the version it answers (a stale one gets 409).
"use strict";

const $ = (id) => document.getElementById(id);
const POLL_MS = 250;
const OPPONENT = "heuristic";
// The lobby's options in words (the title is the longer description).
const OPTION_WORDS = {
  current_month: ["Current Month set", "the optional Current Month set: none, or month 1-12"],
  target_vp: ["Points to win", "the game ends at the end of a round once a player has this many VP"],
  advanced: ["Advanced rules", "the starting harvest and the character draft"],
  merchant_cards: ["Merchant cards", "28 (the rulebook's count) or 24 (the retail count)"],
  chronological_events: ["Events in year order", "events after 1851 in year order, not shuffled"],
  two_player_sides: ["Two-player storehouses", "opposite (South and North) or adjacent (South and West)"],
  solo_target: ["Solo: prestige to win", "with 1 player, the prestige that counts as a win"],
  solo_challenge: ["Solo challenge", "with 1 player: none, ships, buildings or hand2"],
};

function optionWords(name) {
  const known = OPTION_WORDS[name];
  if (known) return known;
  const words = name.replace(/_/g, " ");
  return [words.charAt(0).toUpperCase() + words.slice(1), ""];
}
const page = { id: null, view: null, seat: null, revealed: null, timer: null, busy: false,
               catalogue: null };

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data;
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function showError(text) { $("error").textContent = text || ""; }

function element(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// ----- the lobby ---------------------------------------------------------------------
async function openLobby() {
  $("lobby").hidden = false;
  page.catalogue = await api("GET", "/api/catalogue");
  const select = $("game-name");
  for (const game of page.catalogue.games) select.append(element("option", game.title,
                                                                  { value: game.name }));
  for (const spec of page.catalogue.seat_examples) $("seat-specs").append(
    element("option", null, { value: spec }));
  const { limits, agent_files: files } = page.catalogue;
  $("seat-limits").textContent = `- this server allows at most ${limits.max_simulations} ` +
    `simulations and ${limits.max_think_seconds} s a move` +
    (files.length ? `; agent files: ${files.join(", ")} (policy:NAME, az:NAME)` : "");
  select.onchange = buildForm;
  $("players").oninput = buildSeats;
  $("new-game").onsubmit = startGame;
  buildForm();
  await listGames();
  document.body.dataset.ready = "1";
}

function currentGame() {
  return page.catalogue.games.find((g) => g.name === $("game-name").value);
}

function buildForm() {
  const game = currentGame();
  const players = $("players");
  players.min = game.min_players;
  players.max = game.max_players;
  players.value = Math.min(Math.max(2, game.min_players), game.max_players);
  const box = $("options");
  box.querySelectorAll("label").forEach((n) => n.remove());
  for (const option of game.options) box.append(optionInput(option));
  buildSeats();
}

function optionInput(option) {
  const [words, description] = optionWords(option.name);
  const label = element("label", `${words} `,
                        { title: [description, option.allowed].filter(Boolean).join("; ") });
  let input;
  if (option.kind === "bool") {
    input = element("input", null, { type: "checkbox" });
    input.checked = Boolean(option.default);
  } else if (option.kind === "choice") {
    input = element("select");
    if (option.none_ok) input.append(element("option", "none", { value: "" }));
    for (const choice of option.choices) input.append(element("option", choice,
                                                              { value: choice }));
    input.value = option.default === null ? "" : option.default;
  } else {
    input = element("input", null, { type: "number", min: option.min, max: option.max,
                                     placeholder: option.none_ok ? "none" : "" });
    input.value = option.default === null ? "" : option.default;
  }
  input.dataset.option = option.name;
  input.id = `option-${option.name}`;
  label.append(input);
  return label;
}

function buildSeats() {
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.querySelectorAll("label").forEach((n) => n.remove());
  const count = Number($("players").value) || 1;
  for (let seat = 0; seat < count; seat += 1) {
    const input = element("input", null, { id: `seat-${seat}`, list: "seat-specs",
                                           size: 16 });
    input.value = old[seat] || (seat === 0 ? "human" : OPPONENT);
    const label = element("label", `Player ${seat} `);
    label.append(input);
    box.append(label);
  }
}

function readOptions() {
  const options = {};
  for (const option of currentGame().options) {
    const input = $(`option-${option.name}`);
    let value;
    if (option.kind === "bool") value = input.checked;
    else if (input.value === "") value = null;
    else if (option.kind === "int") value = Number(input.value);
    else value = option.choices.find((c) => String(c) === input.value);
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

async function startGame(event) {
  event.preventDefault();
  const seats = [...$("seats").querySelectorAll("input")].map((i) => i.value.trim());
  const body = { game: $("game-name").value, num_players: Number($("players").value),
                 options: readOptions(), seats };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  try {
    const view = await api("POST", "/api/games", body);
    window.location.href = `/play/${view.id}`;
  } catch (error) {
    showError(error.message);
  }
}

async function listGames() {
  const { games } = await api("GET", "/api/games");
  const body = $("games").querySelector("tbody");
  for (const game of games) {
    const row = element("tr");
    row.append(element("td", `${game.title} (${game.num_players})`),
               element("td", game.seats.join(", ")), element("td", game.status),
               element("td", game.moves_made), element("td", game.created));
    const cell = element("td");
    cell.append(element("a", game.status === "playing" ? "continue" : "open",
                        { href: `/play/${game.id}` }));
    row.append(cell);
    body.append(row);
  }
}

// ----- the table ---------------------------------------------------------------------
async function openGame(id) {
  page.id = id;
  $("play").hidden = false;
  $("undo").onclick = () => post("undo", {});
  $("abandon").onclick = abandon;
  $("reveal").onclick = () => {
    page.seat = page.revealed = Number($("reveal").dataset.seat);
    refresh();
  };
  await refresh();
  document.body.dataset.ready = "1";
}

async function refresh() {
  clearTimeout(page.timer);
  const query = page.seat === null ? "" : `?seat=${page.seat}`;
  try {
    render(await api("GET", `/api/games/${page.id}${query}`));
  } catch (error) {
    showError(error.message);
  }
}

async function post(what, body) {
  if (page.busy || !page.view) return;
  setBusy(true);
  showError("");
  try {
    render(await api("POST", `/api/games/${page.id}/${what}`,
                     { version: page.view.version, seat: page.view.viewer, ...body }));
  } catch (error) {
    showError(error.message);
    if (error.status === 409) await refresh();
  } finally {
    setBusy(false);
  }
}

function setBusy(busy) {
  page.busy = busy;
  document.body.classList.toggle("busy", busy);
  document.body.dataset.busy = busy ? "1" : "0";
}

function abandon() {
  const button = $("abandon");
  if (button.dataset.armed !== "1") {
    button.dataset.armed = "1";
    button.textContent = "Click again to abandon";
    setTimeout(() => { button.dataset.armed = "0"; button.textContent = "Abandon the game"; },
               3000);
    return;
  }
  post("abandon", {});
}

function needsCurtain(view) {
  if (view.humans.length < 2) return null;
  const deciding = view.status === "playing" && view.to_move_kind === "human";
  if (deciding && view.to_move !== page.revealed) return view.to_move;
  return page.revealed === null ? view.viewer : null;
}

function render(view) {
  clearTimeout(page.timer);
  page.view = view;
  const data = document.body.dataset;
  data.version = view.version;
  data.status = view.status;
  data.toMove = view.to_move === null ? "" : view.to_move;
  data.viewer = view.viewer === null ? "" : view.viewer;
  data.thinking = view.thinking ? "1" : "0";
  $("title").textContent = `${view.title} - ${view.num_players} player(s)`;
  drawSeats(view);
  const curtain = needsCurtain(view);
  $("curtain").hidden = curtain === null;
  $("table").hidden = curtain !== null;
  data.curtain = curtain === null ? "" : curtain;
  if (curtain !== null) {
    $("curtain-text").textContent = `Player ${curtain}'s decision: pass the screen to ` +
      `Player ${curtain}, then show the table from that seat.`;
    $("reveal").textContent = `Show Player ${curtain}'s view`;
    $("reveal").dataset.seat = curtain;
    $("status").textContent = "";
    return;
  }
  page.seat = view.viewer;
  drawStatus(view);
  drawBoard(view);
  drawMoves(view);
  drawLog(view);
  drawResult(view);
  if (view.error) showError(view.error);
  else if (view.status === "playing" && view.to_move_kind === "agent") {
    page.timer = setTimeout(refresh, POLL_MS);
  }
}

function drawSeats(view) {
  const list = $("seat-list");
  list.textContent = "";
  view.seats.forEach((spec, seat) => {
    const you = seat === view.viewer ? " (you)" : "";
    const span = element("span", `P${seat} ${spec}${you}`, { class: "seat" });
    if (seat === view.to_move) span.classList.add("deciding");
    if (seat === view.to_move && view.thinking) span.classList.add("thinking");
    list.append(span);
  });
}

function drawStatus(view) {
  const status = $("status");
  status.className = "";
  const who = view.to_move === null ? "" : view.seats_named[view.to_move];
  if (view.status !== "playing") {
    status.textContent = view.prompt;
  } else if (view.to_move === view.viewer && view.to_move_kind === "human") {
    status.textContent = `Your decision - ${view.prompt}`;
    status.className = "yours";
  } else if (view.to_move_kind === "agent") {
    status.textContent = `${who} is ${view.thinking ? "thinking\u2026" : "about to move"}`;
    status.className = "thinking";
  } else {
    status.textContent = `${who} decides - ${view.prompt}`;
  }
}

function drawBoard(view) {
  const board = $("board");
  board.innerHTML = view.svg;
  const legal = new Map(view.moves.map((m) => [m.action, m.label]));
  for (const node of board.querySelectorAll("[data-action]")) {
    const ids = node.getAttribute("data-action").split(/\s+/).map(Number)
      .filter((a) => legal.has(a));
    if (!ids.length) continue;
    node.classList.add("target");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", ids.map((a) => legal.get(a)).join(" / "));
    node.dataset.legal = ids.join(" ");
    node.addEventListener("click", (event) => { event.stopPropagation(); choose(ids); });
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(ids); }
    });
  }
}

function choose(ids) {
  const chooser = $("chooser");
  if (ids.length === 1) { chooser.hidden = true; post("moves", { action: ids[0] }); return; }
  chooser.textContent = "";
  chooser.append(element("div", "This piece stands for several moves:"));
  for (const action of ids) {
    const move = page.view.moves.find((m) => m.action === action);
    const button = element("button", move.label, { type: "button" });
    button.onclick = () => { chooser.hidden = true; post("moves", { action }); };
    chooser.append(button);
  }
  const cancel = element("button", "cancel", { type: "button" });
  cancel.onclick = () => { chooser.hidden = true; };
  chooser.append(cancel);
  chooser.hidden = false;
}

function drawMoves(view) {
  const box = $("moves");
  box.textContent = "";
  $("chooser").hidden = true;
  $("moves-title").hidden = !view.moves.length;
  for (const move of view.moves) {
    const button = element("button", move.label, { type: "button", "data-action": move.action,
                                                   class: "move" });
    button.onclick = () => post("moves", { action: move.action });
    box.append(button);
  }
  $("undo").disabled = !view.can_undo;
  $("abandon").disabled = view.status !== "playing";
}

function drawLog(view) {
  const log = $("log");
  log.textContent = "";
  for (const row of view.log) {
    const item = element("li", `${row.who}: ${row.text}`, { value: row.step + 1 });
    if (row.player === view.viewer) item.className = "mine";
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function start() {
  const match = window.location.pathname.match(/^\/play\/([0-9a-f]+)\/?$/);
  const opening = match ? openGame(match[1]) : openLobby();
  opening.catch((error) => { showError(error.message); document.body.dataset.ready = "1"; });
}

start();
