// ONNX Runtime (npm onnxruntime-node) timing: model.onnx '[dims]' threads repeats
// -> median milliseconds of session.run after a warm-up.
const ort = require('onnxruntime-node');
const {medianRunMs} = require('./ort_median.js');
(async () => {
  const [path, dimsJson, threads, repeats] = process.argv.slice(2);
  const s = await ort.InferenceSession.create(path, {intraOpNumThreads: +threads, interOpNumThreads: 1});
  const dims = JSON.parse(dimsJson), n = dims.reduce((a, b) => a * b, 1);
  const feeds = {[s.inputNames[0]]: new ort.Tensor('float32', new Float32Array(n).fill(0.5), dims)};
  console.log((await medianRunMs(s, feeds, +repeats)).toFixed(4));
})();
