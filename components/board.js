// A game's board as one SVG. Every coordinate comes from Python (components/board_view.py and the
// game's layout); this file only draws what it is given and plays the moves it is sent.

// The static board: re-rendered only when its props change, not on every animation frame.
const BoardBase = {
  props: { g: Object, active: String, upright: String },
  methods: {
    on(c) {
      return this.active[c] === "1";
    },
  },
  template: `
    <g>
      <rect x="2" y="2" :width="g.size - 4" :height="g.size - 4" rx="22" fill="#f6efdf" stroke="#6f5f45" stroke-width="4"/>
      <rect v-for="(y, c) in g.yards" :key="'yard' + c" :x="y[0]" :y="y[1]" :width="y[2]" :height="y[3]"
            :fill="on(c) ? g.colours[c][1] : '#d6d3cd'" stroke="#6f5f45" stroke-width="3"/>
      <g v-for="(s, c) in g.starts" :key="'start' + c">
        <circle :cx="s[0]" :cy="s[1]" :r="s[2]" :fill="on(c) ? g.colours[c][3] : '#e4e2de'"
                :stroke="on(c) ? g.colours[c][1] : '#aaa69e'" stroke-width="5"/>
        <circle v-for="k in 4" :key="k" :cx="g.slots[4 * c + k - 1][0]" :cy="g.slots[4 * c + k - 1][1]"
                :r="g.cell * 0.5" fill="#ffffff" fill-opacity="0.55"
                :stroke="on(c) ? g.colours[c][1] : '#aaa69e'" stroke-opacity="0.35" stroke-width="2"/>
      </g>
      <rect v-for="(t, s) in g.track" :key="'sq' + s" :x="t[0]" :y="t[1]" :width="t[2]" :height="t[3]"
            fill="#fffdf8" stroke="#8c7b5e" stroke-width="2"/>
      <rect v-for="(l, k) in g.lanes" :key="'lane' + k" :x="l[1]" :y="l[2]" :width="l[3]" :height="l[4]"
            :fill="g.colours[l[0]][3]" :stroke="g.colours[l[0]][1]" stroke-opacity="0.6" stroke-width="2"/>
      <g v-for="(m, k) in g.safe" :key="'safe' + k" :transform="'translate(' + m[0] + ' ' + m[1] + ')'">
        <rect v-if="m[2] >= 0" :x="-g.cell / 2" :y="-g.cell / 2" :width="g.cell" :height="g.cell"
              :fill="g.colours[m[2]][4]" stroke="#8c7b5e" stroke-width="2"/>
        <polygon :points="g.star" :transform="upright" :fill="m[2] >= 0 ? '#ffffff' : '#d9b23c'"
                 :stroke="m[2] >= 0 ? g.colours[m[2]][2] : '#8a6d12'" stroke-width="1.5" stroke-linejoin="round"/>
      </g>
      <rect :x="g.centre[0]" :y="g.centre[1]" :width="g.centre[2]" :height="g.centre[3]"
            fill="#ffffff" stroke="#6f5f45" stroke-width="3"/>
      <polygon v-for="(h, c) in g.homes" :key="'home' + c" :points="h" :fill="g.colours[c][1]"
               stroke="#ffffff" stroke-width="3" stroke-linejoin="round"/>
    </g>
  `,
};

// One piece, a component of its own: a show() that moves one piece re-renders that piece (and
// those whose flags changed), not all of them. Its props are plain values, so Vue can tell.
// The top piece of a stack (three or more on one square) carries the count: a dark disc with a
// white rim and figure, where the layout puts it (badge: dx, dy, r from the piece's centre);
// the pieces under it show no movable ring (the top one, raised because it may move, has it).
const BoardPiece = {
  props: {
    pkey: String, n: Number, x: Number, y: Number, r: Number, hit: Number, label: String,
    movable: Boolean, selected: Boolean, fill: String, dark: String, upright: String, reduced: Boolean,
    count: Number, badge: Array, under: Boolean,
  },
  emits: ["press"],
  data() {
    return { focused: false };
  },
  created() {
    // Only movable pieces listen for focus: Chromium makes any SVG element with focus
    // listeners a tab stop, whatever its tabindex. One object, so a re-render rebinds nothing.
    this.focusWatch = { focus: () => (this.focused = true), blur: () => (this.focused = false) };
  },
  methods: {
    press() {
      this.$emit("press", this.pkey);
    },
  },
  template: `
    <g :data-testid="'board-piece-' + pkey" role="button"
       :aria-label="label" :aria-disabled="movable ? null : 'true'" :tabindex="movable ? 0 : null"
       :transform="'translate(' + x + ' ' + y + ')'"
       :style="{ cursor: movable ? 'pointer' : 'default', outline: 'none' }"
       @click="press" @keydown.enter.prevent="press" @keydown.space.prevent="press"
       v-on="movable ? focusWatch : {}">
      <circle v-if="movable" :r="hit" fill="transparent"/>
      <template v-if="selected">
        <circle class="selected-ring" :r="r * 1.27" fill="none" stroke="#ffffff" :stroke-width="r * 0.45"/>
        <circle :r="r * 1.27" fill="none" stroke="#1b1b1b" :stroke-width="r * 0.23"/>
      </template>
      <template v-else-if="movable && !under">
        <circle :r="r * 1.23" fill="none" stroke="#ffffff" :stroke-width="r * 0.36"/>
        <circle :r="r * 1.23" fill="none" stroke="#1b1b1b" :stroke-width="r * 0.16"
                :stroke-dasharray="r * 0.32 + ' ' + r * 0.23">
          <animate v-if="!reduced" attributeName="stroke-opacity" values="1;0.45;1" dur="1.2s"
                   repeatCount="indefinite"/>
        </circle>
      </template>
      <circle :r="r + 2" fill="#ffffff"/>
      <circle :r="r - 1" :fill="fill" :stroke="dark" stroke-width="3"/>
      <circle :r="Math.max(r - 5, 1)" fill="none" stroke="#ffffff" stroke-opacity="0.45" stroke-width="2"/>
      <text :transform="upright" text-anchor="middle" dominant-baseline="central" :font-size="r * 1.2"
            font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-weight="700"
            fill="#ffffff" :stroke="dark" stroke-width="4" stroke-linejoin="round" paint-order="stroke"
            pointer-events="none">{{ n }}</text>
      <g v-if="count" class="stack-count" aria-hidden="true"
         :transform="'translate(' + badge[0] + ' ' + badge[1] + ')'">
        <circle :r="badge[2]" fill="#ffffff"/>
        <circle :r="badge[2] - 2.5" fill="#1b1b1b"/>
        <text :transform="upright" text-anchor="middle" dominant-baseline="central"
              :font-size="badge[2] * (count > 9 ? 1.05 : 1.4)"
              font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-weight="800"
              fill="#ffffff" pointer-events="none">{{ count }}</text>
      </g>
      <circle v-if="movable && focused" class="focus-ring" :r="r + 13" fill="none" stroke="#0b57d0" stroke-width="5"/>
    </g>
  `,
};

export default {
  components: { BoardBase, BoardPiece },
  props: { geometry: Object, state: String },
  emits: ["piece_click", "target_click", "piece_stuck"],
  data() {
    return { anim: null, clock: 0, frame: 0, lastSeq: 0, prefersReduced: false };
  },
  computed: {
    // The state comes as one JSON string: cheaper for the server to send than nested lists.
    view() {
      return JSON.parse(this.state);
    },
    turn() {
      const half = this.geometry.size / 2;
      return `rotate(${90 * this.view.rotation} ${half} ${half})`;
    },
    upright() {
      return `rotate(${-90 * this.view.rotation})`;
    },
    activeKey() {
      return this.view.active.join("");
    },
    reduced() {
      return this.view.reduced || this.prefersReduced;
    },
    pieces() {
      const held = this.anim ? this.heldPositions() : {};
      return this.view.pieces.map(([c, i, x, y, r, hit, flags, label, ax, ay, reach, count]) => {
        const key = `${this.geometry.colours[c][0]}-${i + 1}`;
        const at = held[key] || [x, y];
        return {
          key, c, n: i + 1, x: at[0], y: at[1], r, hit, label, ax, ay, reach, count,
          movable: (flags & 1) !== 0,
          selected: (flags & 2) !== 0,
          under: (flags & 4) !== 0,
          fill: this.geometry.colours[c][1],
          dark: this.geometry.colours[c][2],
        };
      });
    },
  },
  watch: {
    view(s) {
      this.play(s);
    },
  },
  created() {
    this.prefersReduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  },
  mounted() {
    this.lastSeq = this.view.seq; // a page (re)load shows the position, it does not replay
  },
  unmounted() {
    cancelAnimationFrame(this.frame);
  },
  methods: {
    press(p) {
      // The press holds the page's controls until the server answers (see presses.py).
      const stamp = this.view.stamp;
      if (p.movable && (!window.parcheesiClaim || window.parcheesiClaim(stamp))) {
        this.$emit("piece_click", { colour: p.c, piece: p.n - 1, stamp });
      } else if (!p.movable && p.c === this.view.explain) {
        // Learning mode: a piece of the player to act that cannot move asks why (no action).
        this.$emit("piece_stuck", { colour: p.c, piece: p.n - 1 });
      }
    },
    // A tap that no piece or marker took goes to the nearest movable piece whose tap disc
    // holds it (a thumb is wider than a piece; the two pieces of a pair share a disc round
    // their square); any tap also ends an animation still playing.
    tap(evt) {
      this.finish();
      if (evt.target.closest && evt.target.closest('[role=button]:not([aria-disabled])')) return;
      const matrix = this.$refs.layer && this.$refs.layer.getScreenCTM();
      if (!matrix) return;
      const at = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(matrix.inverse());
      // In learning mode a tap on a piece that cannot move is its own question, not a near miss.
      if (this.pieces.some((p) => !p.movable && p.c === this.view.explain
                           && Math.hypot(p.x - at.x, p.y - at.y) < p.r)) return;
      let best = null;
      let nearest = Infinity;
      for (const p of this.pieces) {
        if (!p.movable || Math.hypot(p.ax - at.x, p.ay - at.y) >= p.reach) continue;
        const d = Math.hypot(p.x - at.x, p.y - at.y);
        if (d < nearest) [best, nearest] = [p, d];
      }
      if (best) this.press(best);
    },
    pressTarget(k) {
      const stamp = this.view.stamp;
      if (!window.parcheesiClaim || window.parcheesiClaim(stamp)) {
        this.$emit("target_click", { index: k, stamp });
      }
    },
    pressKey(key) {
      const p = this.pieces.find((q) => q.key === key);
      if (p) this.press(p);
    },
    finish() {
      cancelAnimationFrame(this.frame);
      this.anim = null;
    },
    play(s) {
      this.finish();
      if (s.seq <= this.lastSeq) return; // the same show() sent again
      this.lastSeq = s.seq;
      if (s.sound && window.parcheesiSound) window.parcheesiSound(s.sound[0], s.sound[1]);
      if (this.reduced || !s.moves.length) return;
      let t = 0;
      const tracks = s.moves.map(([c, i, flat, ms]) => {
        const points = [];
        for (let k = 0; k < flat.length; k += 2) points.push([flat[k], flat[k + 1]]);
        const track = { key: `${this.geometry.colours[c][0]}-${i + 1}`, points, ms, t0: t };
        t += (points.length - 1) * ms;
        return track;
      });
      const start = performance.now();
      this.anim = { tracks };
      this.clock = 0;
      const tick = (now) => {
        this.clock = now - start;
        if (this.clock >= t) this.finish();
        else this.frame = requestAnimationFrame(tick);
      };
      this.frame = requestAnimationFrame(tick);
    },
    // Where each moving piece is at this.clock: before its first move it waits at the start,
    // between its moves at the last square reached, and it hops square by square (eased).
    heldPositions() {
      const held = {};
      for (const { key, points, ms, t0 } of this.anim.tracks) {
        if (this.clock < t0) {
          if (!(key in held)) held[key] = points[0];
          continue;
        }
        const steps = points.length - 1;
        const k = Math.min((this.clock - t0) / Math.max(ms, 1), steps);
        const step = Math.min(Math.floor(k), steps - 1);
        const f = k - step;
        const e = f * f * (3 - 2 * f);
        const [ax, ay] = points[step];
        const [bx, by] = points[step + 1];
        held[key] = [ax + (bx - ax) * e, ay + (by - ay) * e];
      }
      return held;
    },
  },
  template: `
    <svg data-testid="board" role="group" :aria-label="geometry.label" width="100%"
         :viewBox="'0 0 ' + geometry.size + ' ' + geometry.size" xmlns="http://www.w3.org/2000/svg"
         style="display: block; user-select: none; -webkit-user-select: none; touch-action: manipulation"
         @click="tap">
      <g :transform="turn" ref="layer">
        <BoardBase :g="geometry" :active="activeKey" :upright="upright"/>
        <g v-for="(t, k) in view.targets" :key="'target' + k" :transform="'translate(' + t[0] + ' ' + t[1] + ')'"
           :data-testid="t[4] ? 'board-target' : null" :role="t[4] ? 'button' : null"
           :aria-label="t[4] || null" :tabindex="t[4] ? 0 : null"
           :style="{ cursor: t[4] ? 'pointer' : 'default', outline: 'none' }"
           @click="t[4] && pressTarget(k)" @keydown.enter.prevent="t[4] && pressTarget(k)"
           @keydown.space.prevent="t[4] && pressTarget(k)">
          <circle v-if="t[4]" :r="Math.max(t[2], geometry.tap_reach)" fill="transparent"/>
          <circle :r="t[2]" :fill="geometry.colours[t[3]][3]" fill-opacity="0.75" stroke="#1b1b1b"
                  stroke-width="3.5" stroke-dasharray="9 6">
            <animateTransform v-if="!reduced" attributeName="transform" type="rotate" from="0" to="360"
                              dur="6s" repeatCount="indefinite"/>
          </circle>
          <text v-if="t[4]" :transform="upright" text-anchor="middle" dominant-baseline="central"
                :font-size="t[2] * 1.1" font-weight="700" fill="#1b1b1b" stroke="#ffffff"
                stroke-width="5" paint-order="stroke" pointer-events="none">{{ k + 1 }}</text>
        </g>
        <template v-if="!reduced">
          <g v-for="(f, k) in view.flashes" :key="'flash' + view.seq + '-' + k"
             :transform="'translate(' + f[0] + ' ' + f[1] + ')'" pointer-events="none" aria-hidden="true">
            <circle class="capture-flash" :r="geometry.cell * 0.8" fill="#ffffff" fill-opacity="0.85"
                    stroke="#d9b23c" stroke-width="7" :style="{ animationDelay: f[2] + 'ms' }"/>
          </g>
        </template>
        <g v-for="(b, k) in view.bursts" :key="'burst' + view.seq + '-' + k"
           :transform="'translate(' + b[0] + ' ' + b[1] + ')'" pointer-events="none" aria-hidden="true">
          <g :transform="upright">
            <text class="burst" :y="-geometry.cell * 0.7" text-anchor="middle" font-weight="800"
                  :font-size="geometry.cell * 0.9" fill="#1b1b1b" stroke="#ffffff" stroke-width="6"
                  paint-order="stroke">{{ b[2] }}</text>
          </g>
        </g>
        <BoardPiece v-for="p in pieces" :key="p.key" :pkey="p.key" :n="p.n" :x="p.x" :y="p.y" :r="p.r"
                    :hit="p.hit" :label="p.label" :movable="p.movable" :selected="p.selected" :fill="p.fill"
                    :dark="p.dark" :upright="upright" :reduced="reduced" :count="p.count"
                    :badge="geometry.badge" :under="p.under" @press="pressKey"/>
      </g>
    </svg>
  `,
};
