// A plain <div> that is a Vue component of its own. NiceGUI draws nested plain elements inside
// the render of their nearest component ancestor, so without a boundary an update of one
// button redraws the whole page. An update of an element inside a region redraws that region.
export default {
  template: `<div><slot></slot></div>`,
};
