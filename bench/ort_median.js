// The timing both ONNX Runtime scripts share: one warm-up run, then the
// median milliseconds of `repeats` runs of session.run on `feeds`.
async function medianRunMs(session, feeds, repeats) {
  await session.run(feeds);
  const t = [];
  for (let i = 0; i < repeats; i++) {
    const a = process.hrtime.bigint();
    await session.run(feeds);
    t.push(Number(process.hrtime.bigint() - a) / 1e6);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)];
}
module.exports = {medianRunMs};
