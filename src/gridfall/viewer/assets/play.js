// The Connect Four play page: click a column (or STEAL) to move; the server answers with the
// bot's move.  Text from the server is set with textContent only.
(function () {
  "use strict";
  var state = null, busy = false;
  var board = document.getElementById("board"), status = document.getElementById("status");
  var message = document.getElementById("bot-message"), steal = document.getElementById("steal");
  var output = document.getElementById("bot-output");

  function post(path, body) {
    busy = true;
    return fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (data) { return { ok: r.ok, data: data }; }); })
      .then(function (answer) {
        busy = false;
        if (!answer.ok) { status.textContent = "refused: " + answer.data.error; return; }
        state = answer.data;
        draw();
      })
      .catch(function (e) { busy = false; status.textContent = "the server did not answer: " + e; });
  }
  function draw() {
    var w = state.width, h = state.height, size = 56;
    var svg = SVG.clear(board, w * size, h * size);
    SVG.add(svg, "rect", { x: 0, y: 0, width: w * size, height: h * size, fill: PALETTE.connect4.board });
    for (var i = 0; i < w * h; i++) {
      var c = state.cells.charAt(i), x = (i % w) * size + size / 2, y = Math.floor(i / w) * size + size / 2;
      SVG.add(svg, "circle", { cx: x, cy: y, r: size / 2 - 6, "class": c === "." ? "hole" : "chip chip" + c,
        fill: PALETTE.connect4[c] || PALETTE.connect4.hole });
    }
    for (var col = 0; col < w; col++) {
      var hit = SVG.add(svg, "rect", { x: col * size, y: 0, width: size, height: h * size, fill: "transparent",
        "class": "column", "data-column": String(col), cursor: "pointer" });
      hit.addEventListener("click", (function (column) { return function () { move(column); }; })(col));
    }
    steal.hidden = state.legal.indexOf(-2) < 0;
    message.textContent = state.bot_message ? "bot: " + state.bot_message : "";
    output.textContent = state.bot_output;  // what the bot wrote to stderr in its last turn
    if (state.result) { status.textContent = state.result; }
    else if (state.to_move === state.person) { status.textContent = "your move (you are " + (state.person === 0 ? "yellow, first" : "red, second") + ")"; }
    else { status.textContent = "the bot is thinking"; }
    document.body.setAttribute("data-state", state.result ? "over" : (state.to_move === state.person ? "yours" : "bot"));
    document.body.setAttribute("data-moves", String(state.moves.length));
  }
  function move(action) {
    if (!state || busy || state.result || state.legal.indexOf(action) < 0) { return; }
    status.textContent = "the bot is thinking";
    post("/api/move", { game: state.game, action: action });
  }
  document.getElementById("new-first").addEventListener("click", function () { post("/api/new", { seat: 0 }); });
  document.getElementById("new-second").addEventListener("click", function () { post("/api/new", { seat: 1 }); });
  steal.addEventListener("click", function () { move(-2); });
  window.gridfallPlay = { state: function () { return state; } };
})();
