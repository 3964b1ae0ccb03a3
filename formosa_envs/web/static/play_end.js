// formosa serve: the end of a game on the table page (loaded before play.js, whose
// helpers $, element, api and showError it uses): the final scores with each seat's
// parts, the replay and record links, and a rematch with the same seats and options.
"use strict";

function drawResult(view) {
  const result = $("result");
  result.hidden = !view.result;
  $("end").hidden = !view.result;
  $("controls").hidden = Boolean(view.result);
  if (!view.result) return;
  result.textContent = "";
  result.append(element("p", view.prompt, { id: "result-text" }));
  result.append(scoreTable(view));
  $("record-link").href = view.record_url;
  $("replay-link").href = view.replay_url;
  $("rematch").onclick = () => rematch(view);
}

function scoreTable(view) {
  // One column per seat: its parts (what final scoring added, what play scored), the total.
  const table = element("table", null, { id: "scores" });
  const head = element("tr");
  head.append(element("th", ""));
  view.seats_named.forEach((name, seat) => {
    const winner = view.result.winners.includes(seat) ? " \u2605" : "";
    head.append(element("th", name + winner));
  });
  table.append(head);
  const parts = [];
  for (const seat of view.result.breakdown) {
    for (const row of seat) if (!parts.includes(row.part)) parts.push(row.part);
  }
  for (const part of parts) {
    const line = element("tr");
    line.append(element("td", part));
    for (const seat of view.result.breakdown) {
      const row = seat.find((r) => r.part === part);
      line.append(element("td", row ? String(row.points) : "-"));
    }
    table.append(line);
  }
  const total = element("tr", null, { class: "total" });
  total.append(element("td", "total"));
  for (const score of view.result.scores) total.append(element("td", String(score)));
  table.append(total);
  return table;
}

async function rematch(view) {
  // Same game, players, options and seats; a new seed (the server draws one).
  const body = { game: view.game, num_players: view.num_players, options: view.options,
                 seats: view.seats };
  try {
    const next = await api("POST", "/api/games", body);
    window.location.href = `/play/${next.id}`;
  } catch (error) {
    showError(error.message);
  }
}
