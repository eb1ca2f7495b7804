// ONNX Runtime's (npm onnxruntime-node) memory for one run at one shape, in
// a fresh process and session, under bench/dynamic/memcount.so (LD_PRELOAD):
//   LD_PRELOAD=memcount.so node ort_memory.js model.onnx '[1,3,160,160]' float32|int64
// memcount writes "memcount: <peak> <held>" to stderr: the most bytes the
// run held at once through malloc and friends beyond those held before it
// (after the session was created and the input made), and those it still
// holds after it (ORT's arena keeps its chunks).
const fs = require('fs');
const ort = require(require('path').join(__dirname, '..', '.peers', 'node_modules', 'onnxruntime-node'));
const mark = (what) => {
  try {
    fs.closeSync(fs.openSync('/nonexistent/strata-memcount/' + what, 'r'));
  } catch (e) { /* ENOENT: the mark was taken */ }
};
(async () => {
  const [path, dimsJson, dtype] = process.argv.slice(2);
  const dims = JSON.parse(dimsJson);
  const s = await ort.InferenceSession.create(path, {intraOpNumThreads: 1, interOpNumThreads: 1});
  const n = dims.reduce((a, b) => a * b, 1);
  const data = dtype === 'int64' ? BigInt64Array.from({length: n}, (_, i) => BigInt(i % 7))
                                 : new Float32Array(n).fill(0.5);
  const feeds = {[s.inputNames[0]]: new ort.Tensor(dtype, data, dims)};
  mark('reset');
  const out = await s.run(feeds);
  mark('report');
  if (!Object.keys(out).length) process.exit(1);
})();
