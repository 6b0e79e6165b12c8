"use strict";
(function () {
  const data = JSON.parse(document.getElementById("game").textContent);
  const S = data.strings;
  const W = data.words;
  const frames = data.frames;
  const $ = (id) => document.getElementById(id);
  const slider = $("slider");
  const toggles = ["roles", "hands", "results", "deck", "claims"];
  let at = 0;

  function on(name) {
    const box = $("show-" + name);
    return Boolean(box && box.checked);
  }

  /* One of the page's words (in the game's language) with its {fields} filled. */
  function say(key, fields) {
    return W[key].replace(/\{(\w+)\}/g, (whole, name) =>
      Object.prototype.hasOwnProperty.call(fields, name) ? String(fields[name]) : whole);
  }

  function text(id, value) {
    $(id).textContent = value;
  }

  function items(list, rows) {
    list.replaceChildren(...rows.map((row) => {
      const li = document.createElement("li");
      li.textContent = row;
      return li;
    }));
  }

  function vote(pair, seat) {
    const fields = {name: S[pair[0]], vote: S[pair[1]]};
    if (on("roles") && data.roles[seat]) {
      fields.role = S[data.roles[seat][1]];
      return say("voteRole", fields);
    }
    return say("vote", fields);
  }

  function hidden(frame) {
    const box = $("hidden-now");
    if (!box) {
      return;
    }
    const parts = [];
    if (on("roles")) {
      const roles = document.createElement("ol");
      roles.id = "roles";
      items(roles, data.roles.map((pair) => say("role", {names: S[pair[0]], role: S[pair[1]]})));
      parts.push(heading(W.rolesHeading), roles);
    }
    const lines = frame.h.l.filter((pair) => on(S[pair[0]])).map((pair) => S[pair[1]]);
    if (on("deck")) {
      lines.push(S[frame.h.d], S[frame.h.x]);
    }
    if (lines.length) {
      const list = document.createElement("ul");
      list.id = "secrets";
      items(list, lines);
      parts.push(heading(W.hiddenHeading), list);
    }
    box.replaceChildren(...parts);
  }

  function heading(words) {
    const h = document.createElement("h3");
    h.textContent = words;
    return h;
  }

  function show(index) {
    at = Math.max(0, Math.min(frames.length - 1, index));
    const f = frames[at];
    const hands = on("hands") && f.h;
    text("position", say("position", {at: at + 1, count: frames.length, entry: f.e}));
    slider.value = String(at);
    slider.setAttribute("aria-valuetext", say("step", {at: at + 1, count: frames.length,
      kind: S[f.k]}));
    text("kind", say("kind", {kind: S[f.k]}));
    items($("said"), f.s.map((n) => S[n]));
    text("voided", f.vb ? say("voided", {entry: f.vb}) : "");
    const govs = (hands ? f.h.G : f.G).map((n) => S[n]);
    text("gov", govs.length ? say("government", {government: govs[govs.length - 1]}) :
      W.noGovernment);
    $("board").innerHTML = f.b.map((n) => S[n]).join("\n");
    text("round", String(f.r));
    text("phase", S[f.ph]);
    text("president", S[f.p]);
    text("chancellor", S[f.c]);
    text("tracker", f.t);
    text("draw", String(f.d));
    text("discard", String(f.x));
    text("liberal", f.l);
    text("fascist", f.f);
    text("waiting", say("waiting", {waiting: S[f.w]}));
    text("vote-title", S[f.vt]);
    items($("votes"), f.v.map(vote));
    items($("govs"), govs);
    const claims = (on("claims") && f.h ? f.h.K : f.K).map((n) => S[n]);
    items($("claims"), claims);
    text("no-claims", claims.length ? "" : W.noClaims);
    hidden(f);
    $("first").disabled = $("prev").disabled = at === 0;
    $("next").disabled = $("last").disabled = at === frames.length - 1;
    try {
      history.replaceState(null, "", "#step-" + (at + 1));
    } catch (e) {
      /* a page opened where the address cannot change: stepping works all the same */
    }
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(frames.length - 1));
  slider.addEventListener("input", () => show(Number(slider.value)));
  toggles.forEach((name) => {
    const box = $("show-" + name);
    if (box) {
      box.addEventListener("change", () => show(at));
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target === slider) {
      return;
    }
    const to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: frames.length - 1}[event.key];
    if (to !== undefined) {
      event.preventDefault();
      show(to);
    }
  });
  const asked = /^#step-(\d+)$/.exec(location.hash);
  show(asked ? Number(asked[1]) - 1 : 0);
})();
