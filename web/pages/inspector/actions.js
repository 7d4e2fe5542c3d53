/*
 * CoreDataBrowser — Inspector view: the moves a lower module starts and a higher one carries out (the toolbar
 * reloads the page of records, a row opens its record, the detail pane lists a relationship's records or opens an
 * entity). The modules are layered state → toolbar → record-list → detail → editing → entities → inspector.js, and
 * import only downward; inspector.js fills this table in when it loads, before any event can call into it.
 */

function notYet(name) {
  return () => { throw new Error(`Inspector action ${name} called before inspector.js set it`); };
}

const actions = {
  editingButtons: notYet('editingButtons'),
  loadDetail: notYet('loadDetail'),
  loadPage: notYet('loadPage'),
  renderRecords: notYet('renderRecords'),
  resumeEditing: notYet('resumeEditing'),
  selectEntity: notYet('selectEntity'),
  showList: notYet('showList'),
};

export {
  actions,
};
