/*
 * CoreDataBrowser — a page's table of moves that a lower module starts and a higher one carries out, so a page's
 * modules import only downward (scripts/check-architecture.py fails on an import cycle). Each move starts as a stub
 * that throws, naming itself, until the page's entry module sets it; the entry module sets every move before it
 * wires anything, so no event can reach a stub.
 *
 *   actionTable(page, names)   {name: stub} for each name; assign the real functions with Object.assign
 */

function actionTable(page, names) {
  const table = {};
  for (const name of names) {
    table[name] = () => { throw new Error(`${page} action ${name} called before the page's entry module set it`); };
  }
  return table;
}

export {
  actionTable,
};
