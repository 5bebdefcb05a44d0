// Match-3: the swap, then each cascade (explode, fall) and the refill, with the move's points.
var GAME = {
  colours: PALETTE.match3,
  render: function (game, frame, index, board, info) {
    var n = frame.n, size = Math.floor(400 / n), svg = SVG.clear(board, n * size, n * size);
    var marked = {};
    (frame.marked || []).forEach(function (i) { marked[i] = true; });
    for (var i = 0; i < n * n; i++) {
      var c = frame.cells.charAt(i), x = (i % n) * size, y = Math.floor(i / n) * size;
      if (c === "*") { continue; }
      SVG.add(svg, "rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, rx: size / 3,
        fill: GAME.colours[c] || "#999", stroke: marked[i] ? "#000" : "none", "stroke-width": marked[i] ? 3 : 0,
        "class": marked[i] ? "jewel marked" : "jewel" });
    }
    var rows = [["board", frame.board + " (" + n + "x" + n + ")"], ["move", frame.move + " of " + frame.moves],
                ["step", frame.phase], ["move's points", String(frame.points)], ["total", String(frame.total), "", "total"]];
    if (frame.swap) { rows.push(["swap", frame.swap]); }
    if (frame.time !== null && frame.time !== undefined) { rows.push(["time", frame.time + " ms"]); }
    if (frame.output) { rows.push(["printed", frame.output, "output"]); }
    if (frame.last_output) { rows.push(["printed in the call that ended the game", frame.last_output, "output"]); }
    if (frame.result) { rows.push(["result", frame.result, "", "result"]); }
    SVG.rows(info, rows);
  }
};
