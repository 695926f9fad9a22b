// A node:test reporter (scripts/test.mjs gives it to each test process beside the spec reporter),
// so that `npm test` can say at its end what it skipped and why, and which file of a group failed,
// instead of both passing unseen in the scroll-back. One JSON line per:
// - skipped test or suite: { name, reason, top }, `top` being the test or suite at the top it is in
//   (in a group of files, the file: scripts/testGroups.mjs);
// - failed test or suite at the top: { failed: name } (in a group, the file).
export default async function* outcomeReporter(source) {
  let top;
  for await (const event of source) {
    if (event.type === 'test:start' && event.data.nesting === 0) top = event.data.name;
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { skip, name, nesting } = event.data;
    if (event.type === 'test:fail' && nesting === 0) yield `${JSON.stringify({ failed: name })}\n`;
    if (skip === undefined || skip === false) continue;
    yield `${JSON.stringify({ name, reason: typeof skip === 'string' ? skip : 'no reason given', top })}\n`;
  }
}
