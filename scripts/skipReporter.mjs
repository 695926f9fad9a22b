// A node:test reporter (scripts/test.mjs gives it to each test file beside the spec reporter): one
// JSON line per skipped test or suite, { name, reason }, so that `npm test` can say at its end what
// it skipped and why, instead of the skips passing unseen in the scroll-back.
// `top`: the test or suite at the top it is in (in a group of files, the file: scripts/testGroups.mjs).
export default async function* skipReporter(source) {
  let top;
  for await (const event of source) {
    if (event.type === 'test:start' && event.data.nesting === 0) top = event.data.name;
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { skip, name } = event.data;
    if (skip === undefined || skip === false) continue;
    yield `${JSON.stringify({ name, reason: typeof skip === 'string' ? skip : 'no reason given', top })}\n`;
  }
}
