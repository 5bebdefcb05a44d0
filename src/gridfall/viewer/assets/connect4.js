// Connect Four: rows top first; the last chip is ringed, the winning four outlined, STEAL named.
var GAME = {
  render: function (game, frame, index, board, info) {
    var w = game.width, h = game.height, size = 44, svg = SVG.clear(board, w * size, h * size);
    SVG.add(svg, "rect", { x: 0, y: 0, width: w * size, height: h * size, fill: PALETTE.connect4.board });
    var win = {};
    (frame.win || []).forEach(function (i) { win[i] = true; });
    for (var i = 0; i < w * h; i++) {
      var c = frame.cells.charAt(i), x = (i % w) * size + size / 2, y = Math.floor(i / w) * size + size / 2;
      SVG.add(svg, "circle", { cx: x, cy: y, r: size / 2 - 5,
        fill: PALETTE.connect4[c] || PALETTE.connect4.hole,
        stroke: win[i] ? "#111" : (i === frame.last ? "#fff" : "none"), "stroke-width": win[i] ? 4 : 3,
        "class": c === "." ? "hole" : "chip chip" + c + (win[i] ? " win" : "") });
    }
    var rows = [["players", game.names[0] + " (0, yellow) vs " + game.names[1] + " (1, red)"],
                ["turn", frame.turn + " of " + game.turns]];
    if (frame.action !== null) {
      rows.push(["move", game.names[frame.player] + ": " + (frame.action === "STEAL" ? "STEAL (takes the first chip)" : "column " + frame.action)
                 + (frame.opening ? " (opening)" : "")]);
    }
    if (frame.time !== null) { rows.push(["time", frame.time + " ms"]); }
    if (frame.message) { rows.push(["message", frame.message, "message"]); }
    if (frame.output) { rows.push(["stderr", frame.output, "output"]); }
    if (frame.lost_output) { rows.push(["stderr of the lost turn", frame.lost_output, "output"]); }
    if (frame.result) { rows.push(["result", frame.result, "", "result"]); }
    SVG.rows(info, rows);
  }
};
