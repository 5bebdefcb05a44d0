// SameGame: 15 x 15 cells, the top row first; the group the next click removes is outlined.
var GAME = {
  colours: PALETTE.samegame,
  render: function (game, frame, index, board, info) {
    var size = 26, n = 15, svg = SVG.clear(board, n * size, n * size);
    var marked = {};
    (frame.group || []).forEach(function (i) { marked[i] = true; });
    for (var i = 0; i < n * n; i++) {
      var c = frame.cells.charAt(i), x = (i % n) * size, y = Math.floor(i / n) * size;
      if (c === ".") { continue; }
      SVG.add(svg, "rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 4,
        fill: GAME.colours[Number(c)], stroke: marked[i] ? "#000" : "none", "stroke-width": marked[i] ? 3 : 0,
        "class": marked[i] ? "cell group" : "cell" });
    }
    var rows = [["move", frame.move + " of " + game.moves], ["score", String(frame.score), "", "score"]];
    if (frame.next) { rows.push(["next click", frame.next + " removes " + frame.size + " for " + frame.gain]); }
    if (frame.time !== null && frame.time !== undefined) { rows.push(["time", frame.time + " ms"]); }
    if (frame.message) { rows.push(["message", frame.message, "message"]); }
    if (frame.output) { rows.push(["stderr", frame.output, "output"]); }
    if (frame.result) { rows.push(["result", frame.result, "", "result"]); }
    if (frame.cleared) { rows.push(["cleared", "+1000 bonus included"]); }
    if (frame.move === game.moves && !frame.cleared) { rows.push(["left", frame.left + " cells, no bonus"]); }
    SVG.rows(info, rows);
    GAME.plot(game);
  },
  plot: function (game) {
    var holder = document.getElementById("plot");
    if (!game.plot || !game.plot.length) { holder.hidden = true; return; }
    holder.hidden = false;
    var w = 300, h = 120, svg = SVG.clear(holder, w, h), pts = game.plot;
    var tmax = Math.max.apply(null, pts.map(function (p) { return p[0]; })) || 1;
    var smin = pts[0][1], smax = Math.max.apply(null, pts.map(function (p) { return p[1]; }));
    var span = Math.max(1, smax - smin);
    var line = pts.map(function (p) {
      return (10 + (w - 20) * p[0] / tmax).toFixed(1) + "," + (h - 15 - (h - 30) * (p[1] - smin) / span).toFixed(1);
    }).join(" ");
    SVG.add(svg, "polyline", { points: line, fill: "none", stroke: "#29335c", "stroke-width": 2 });
    var caption = SVG.add(svg, "text", { x: 10, y: 12, "font-size": 11 });
    caption.textContent = "best score over time: " + smin + " to " + smax + " in " + tmax.toFixed(1) + " s";
  }
};
