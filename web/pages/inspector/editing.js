/*
 * CoreDataBrowser — the Inspector's editing, only when the server writes: Edit and Delete… in the detail's
 * header, + New beside Export in the toolbar, the detail kept in Edit mode across redraws, everything reloaded after a
 * save, and a save's refusals shown at their fields. The editors themselves are features/editing/records.js.
 *
 * Hooks: #edit-record-btn, #delete-record-btn (in .detail-copy), #new-record-btn (after #export-view-btn; disabled
 * for an abstract entity).
 */
import { el } from '../../shared/dom.js';
import * as editing from '../../features/editing/editing.js';
import * as recordEditing from '../../features/editing/records.js';
import { loadDetail } from './detail.js';
import { loadPage, selectRecord } from './record-list.js';
import { commitView, data, dom, setView, view } from './state.js';
import { renderToolbar } from './toolbar.js';

/** The record whose detail is in Edit mode, or null. */
let editingID = null;

/** Edit and Delete… for the detail's header (only with writes on). */
function editingButtons(object, schema) {
  const edit = el('button', 'copy-btn edit-record', editingID === object.id ? 'Editing' : 'Edit');
  edit.type = 'button';
  edit.id = 'edit-record-btn';
  edit.disabled = editingID === object.id || object.version === undefined;
  edit.addEventListener('click', () => {
    editingID = object.id;
    edit.disabled = true;
    edit.textContent = 'Editing';
    recordEditing.editDetail(dom.detail, object, schema);
  });
  const remove = el('button', 'copy-btn delete-record', 'Delete…');
  remove.type = 'button';
  remove.id = 'delete-record-btn';
  remove.addEventListener('click', () => editing.confirmDelete(object, () => {
    editingID = null;
    setView({ ...view, id: null });
    commitView('replace');
    loadPage();
    loadDetail();
  }));
  return [edit, remove];
}

/** After the detail is drawn: a redraw (Save, Live, Refresh) of the record being edited stays in Edit mode. */
function resumeEditing(object, schema) {
  if (data.writable && editingID === object.id) recordEditing.editDetail(dom.detail, object, schema);
}

function wireEditing() {
  editing.writable().then((writable) => {
    data.writable = writable;
    if (!writable) return;
    const create = recordEditing.newRecordButton('control', () => ({ entity: view.entity, schema: data.entityByName.get(view.entity) }),
      (created) => {
        loadPage();
        selectRecord(created.id, 'push');
      });
    dom.exportViewBtn.after(create);
    renderToolbar();
    loadDetail();
  });
  editing.onSaved(() => { loadPage(); loadDetail(); });
  editing.onErrors((id, fields) => {
    if (dom.detail.dataset.id !== id) return;
    for (const { field, message } of fields) {
      const name = field.slice(field.indexOf('.') + 1);
      const host = field.startsWith('attrs.')
        ? dom.detail.querySelector(`tr.attr-row[data-attr="${CSS.escape(name)}"] .attr-value`)
        : dom.detail.querySelector(`.rel-block[data-rel="${CSS.escape(name)}"]`);
      if (!host) continue;
      const problem = host.querySelector('.field-error') || host.appendChild(el('div', 'field-error'));
      problem.hidden = false;
      problem.textContent = message;
    }
  });
}

export { editingButtons, resumeEditing, wireEditing };
