// The move log: one element per entry, newest first (components/move_log.py). Entries are
// keyed, so a new one is inserted and the oldest removed; the others stay as they are.
export default {
  props: { entries: String },
  computed: {
    shown() {
      return JSON.parse(this.entries || "[]");
    },
  },
  template: `<div><div v-for="e in shown" :key="e[0]" role="listitem">{{ e[1] }}</div></div>`,
};
