// The replay player: steps through the frames of the embedded record.  Each game's renderer
// (GAME.render) draws one frame into the SVG and fills the info table; text from bots is set
// with textContent only, never parsed as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var games = data.games, g = 0, f = 0, timer = null;
  var board = document.getElementById("board"), info = document.getElementById("info");
  var position = document.getElementById("position"), select = document.getElementById("game");
  var playButton = document.getElementById("play");

  function show() {
    var game = games[g], frames = game.frames;
    f = Math.max(0, Math.min(f, frames.length - 1));
    GAME.render(game, frames[f], f, board, info);
    position.textContent = "frame " + (f + 1) + " of " + frames.length;
    position.setAttribute("data-frame", String(f));
    document.body.setAttribute("data-frame", String(f));
    document.body.setAttribute("data-game", String(g));
  }
  function step(d) { f += d; show(); }
  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on) {
      if (f >= games[g].frames.length - 1) { f = 0; }
      timer = setInterval(function () {
        if (f >= games[g].frames.length - 1) { play(false); return; }
        step(1);
      }, data.interval || 400);
    }
    playButton.textContent = timer ? "pause" : "play";
  }
  games.forEach(function (game, i) {
    var option = document.createElement("option");
    option.value = String(i);
    option.textContent = game.title;
    select.appendChild(option);
  });
  select.hidden = games.length < 2;
  select.addEventListener("change", function () {
    play(false); g = Number(select.value); f = 0; show();
    select.blur();  // the keys step through the chosen game again, not through the list
  });
  document.getElementById("first").addEventListener("click", function () { play(false); f = 0; show(); });
  document.getElementById("back").addEventListener("click", function () { play(false); step(-1); });
  document.getElementById("forward").addEventListener("click", function () { play(false); step(1); });
  document.getElementById("last").addEventListener("click", function () { play(false); f = 1e9; show(); });
  playButton.addEventListener("click", function () { play(!timer); });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "SELECT") { return; }
    if (e.key === " ") { play(!timer); e.preventDefault(); }
    else if (e.key === "ArrowRight") { play(false); step(1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { play(false); step(-1); e.preventDefault(); }
    else if (e.key === "Home") { play(false); f = 0; show(); }
    else if (e.key === "End") { play(false); f = 1e9; show(); }
  });
  window.gridfallReplay = { show: show, frame: function () { return f; }, frames: function () { return games[g].frames.length; } };
  show();
})();
