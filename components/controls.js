// The table's controls as one component: the status line (first, so that on a phone what just
// happened sits right under the board), the dice and whose roll they are, the dice chips, Roll,
// the piece buttons, the movement options and questions, Hint, Play best and Undo. Everything
// comes from Python as one JSON state (components/controls.py); a click sends one `press` (or
// `chip`) event back. An update of the table is one new state, which Vue patches in place.
import Dice from "dice";

export default {
  components: { Dice },
  props: { state: String },
  emits: ["press", "chip"],
  computed: {
    // One JSON string: cheaper for the server to send than nested props.
    s() {
      return JSON.parse(this.state);
    },
  },
  methods: {
    // A game action: the page's script (presses.py) sends the stamp the control shows and holds
    // every stamped control until the answer. `index`: which piece or option; `blur`: the
    // control goes away once pressed (a movement option).
    press(e, control, index, blur) {
      const emit = (stamp) => this.$emit("press", { control, index, set: this.s.set, stamp });
      window.parcheesiPress(e, emit, blur);
    },
  },
  template: `
    <div>
      <div class="nicegui-column w-full">
        <div class="text-base status-line" data-testid="status" aria-live="polite" role="status">{{ s.status }}</div>
      </div>
      <div class="nicegui-row row dice-row items-center gap-3 w-full no-wrap">
        <div class="nicegui-column dice-box">
          <Dice data-testid="dice" role="img" :aria-label="s.dice.label" :faces="s.dice.faces"
                :rolls="s.dice.rolls"/>
          <div class="dice-owner text-xs" data-testid="dice-owner">{{ s.dice.owner }}</div>
        </div>
        <div class="nicegui-row row gap-1">
          <button v-for="(c, k) in s.chips" :key="k" type="button"
                  :class="['btn', 'btn-sm', 'tone-primary', c[2] ? 'btn-filled' : 'btn-outline']"
                  :data-testid="'portion-' + c[0]" :aria-label="'Use ' + c[0]"
                  :aria-pressed="c[2] ? 'true' : 'false'"
                  @click="$emit('chip', k)">{{ c[0] }}{{ c[1] > 1 ? ' ×' + c[1] : '' }}</button>
        </div>
        <div class="q-space"></div>
        <div class="nicegui-column">
          <button type="button" class="btn btn-lg tone-primary btn-filled" :data-stamp="s.stamp"
                  data-testid="roll" aria-keyshortcuts="R" :disabled="!s.roll[1]"
                  @click="press($event, 'roll', 0, false)">{{ s.roll[0] }}</button>
        </div>
      </div>
      <div :class="['nicegui-row', 'row', 'gap-2', 'w-full', 'no-wrap', { hidden: s.question }]">
        <button v-for="(p, k) in s.pieces" :key="k" type="button"
                :class="['btn', 'btn-lg', 'grow', 'tone-' + s.tone, p[1] ? 'btn-filled' : 'btn-outline']"
                :data-stamp="s.stamp" :data-testid="'piece-' + (k + 1)" :aria-keyshortcuts="k + 1"
                :disabled="!p[0]" :aria-label="p[2]"
                @click="press($event, 'piece', k, false)">{{ k + 1 }}</button>
      </div>
      <div :class="['nicegui-column', 'w-full', 'options-box', { 'options-empty': !s.options.length && s.note === null }]">
        <div :class="['text-grey-8', { hidden: s.note === null }]">{{ s.note }}</div>
        <div class="nicegui-row row gap-2 w-full">
          <button v-for="(o, k) in s.options" :key="s.set + '-' + k" type="button"
                  :class="['btn', 'btn-md', 'tone-' + s.tone, 'btn-filled']" :data-stamp="s.stamp"
                  data-testid="move-option" :data-mark="o[1]" :aria-label="o[0]"
                  @click="press($event, 'option', k, true)">{{ o[0] }}</button>
        </div>
      </div>
      <div class="nicegui-row row gap-2 w-full">
        <button type="button" class="btn btn-md tone-primary btn-outline" :data-stamp="s.stamp"
                data-testid="hint" :disabled="!s.hint" @click="press($event, 'hint', 0, false)">Hint</button>
        <button type="button" class="btn btn-md tone-primary btn-outline" :data-stamp="s.stamp"
                data-testid="play-best" :disabled="!s.hint"
                @click="press($event, 'best', 0, false)">Play best</button>
        <button v-if="s.undo" type="button" class="btn btn-md tone-primary btn-outline" :data-stamp="s.stamp"
                data-testid="undo" aria-keyshortcuts="U" @click="press($event, 'undo', 0, false)">Undo</button>
      </div>
    </div>
  `,
};
