// The dice of a roll drawn as dice: SVG faces with pips. The values come from components/dice_view.py (the TV)
// or components/controls.py (the table, whose controls.js imports this file as the library "dice"); a
// new roll only moves pips, it builds no new drawing.
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
};

export default {
  props: { faces: Array, rolls: Number },
  data() {
    return { tumbling: false };
  },
  watch: {
    // A new roll tumbles briefly (the page's CSS keeps it still when motion is reduced).
    rolls() {
      this.tumbling = false;
      requestAnimationFrame(() => (this.tumbling = true));
      clearTimeout(this.timer);
      this.timer = setTimeout(() => (this.tumbling = false), 500);
    },
  },
  unmounted() {
    clearTimeout(this.timer);
  },
  computed: {
    shown() {
      return (this.faces || []).map((value, k) => ({ k, pips: PIPS[value] || [] }));
    },
  },
  template: `
    <div style="display: flex; gap: 8px; align-items: center; min-height: 56px">
      <svg v-for="face in shown" :key="face.k" viewBox="0 0 100 100" width="52" height="52"
           aria-hidden="true" :class="{ 'die-tumble': tumbling }">
        <rect x="4" y="4" width="92" height="92" rx="18" fill="#fffdf7" stroke="#1d1d1f" stroke-width="4"/>
        <circle v-for="(p, n) in face.pips" :key="n" :cx="p[0]" :cy="p[1]" r="9" fill="#1d1d1f"/>
      </svg>
    </div>
  `,
};
