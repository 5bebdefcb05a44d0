// Small helpers shared by the game renderers: SVG elements and the info table.
var SVG = {
  ns: "http://www.w3.org/2000/svg",
  clear: function (parent, width, height) {
    while (parent.firstChild) { parent.removeChild(parent.firstChild); }
    var svg = document.createElementNS(this.ns, "svg");
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    parent.appendChild(svg);
    return svg;
  },
  add: function (svg, name, attributes) {
    var element = document.createElementNS(this.ns, name);
    Object.keys(attributes).forEach(function (k) { element.setAttribute(k, attributes[k]); });
    svg.appendChild(element);
    return element;
  },
  rows: function (info, rows) {
    while (info.firstChild) { info.removeChild(info.firstChild); }
    var table = document.createElement("table");
    rows.forEach(function (row) {
      var tr = document.createElement("tr");
      var label = document.createElement("td");
      label.className = "label";
      label.textContent = row[0];
      var value = document.createElement("td");
      value.textContent = row[1];
      if (row[2]) { value.className = row[2]; }
      if (row[3]) { value.id = row[3]; }
      tr.appendChild(label);
      tr.appendChild(value);
      table.appendChild(tr);
    });
    info.appendChild(table);
  }
};
