/*
 * CoreDataBrowser — the Lab's editing, only when the server writes: a double-click on a value's cell
 * edits it in place (the row number still opens the Inspector), + New and Delete… beside Export in the grid's
 * toolbar, and the grid and record reloaded after a save. The editors are features/editing/records.js.
 *
 * Hooks: #new-record-btn, #delete-record-btn (after #grid-export-btn); td[data-col] .value-editor while editing.
 */
import { el } from '../../shared/dom.js';
import { setVisibleText } from '../../shared/visible-text.js';
import * as editing from '../../features/editing/editing.js';
import * as recordEditing from '../../features/editing/records.js';
import { attributesOf } from './columns.js';
import { selectRecord } from './grid-selection.js';
import { loadGrid } from './grid.js';
import { syncURL } from './navigation.js';
import { loadRecord } from './record-detail.js';
import { api, dom, isPlainObject, state } from './state.js';

/** Edits one cell of the grid: reads the record's version first (a write names it), then stages on Enter. */
async function editCell(tr, td) {
  const attribute = attributesOf(tr.dataset.entity).find((a) => a.name === td.dataset.col);
  if (!attribute) return;
  let record;
  try {
    record = await api.object(tr.dataset.id);
  } catch (err) {
    setVisibleText(dom.statusText, `Cannot edit: ${err.message}`);
    return;
  }
  const value = isPlainObject(record.attrs) ? record.attrs[attribute.name] ?? null : null;
  recordEditing.editCell(td, { id: record.id, entity: record.entity, version: record.version }, attribute, value);
}

function wireEditing() {
  editing.writable().then((writable) => {
    state.writable = writable;
    if (!writable) return;
    const create = recordEditing.newRecordButton('gt-btn', () => ({ entity: state.entity, schema: state.entityByName.get(state.entity) }),
      (created) => {
        loadGrid();
        selectRecord(created.id);
      });
    dom.gridExportBtn.after(create);
    const remove = el('button', 'gt-btn delete-record', 'Delete…');
    remove.type = 'button';
    remove.id = 'delete-record-btn';
    remove.title = 'Delete the selected record';
    remove.addEventListener('click', () => {
      if (!state.record) return;
      editing.confirmDelete(state.record, () => {
        state.selectedId = null;
        syncURL('replace');
        loadGrid();
        loadRecord();
      });
    });
    create.after(remove);
  });
  editing.onSaved(() => { loadGrid(); loadRecord(); });
}

export { editCell, wireEditing };
