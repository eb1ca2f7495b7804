// ONNX Runtime (npm onnxruntime-node) over many input shapes of one session:
//   node ort_shapes.js model.onnx '[[1,3,160,160], ...]' float32|int64 threads repeats
// -> one line per shape: the median milliseconds of session.run after a
// warm-up at that shape.
const ort = require(require('path').join(__dirname, '..', '.peers', 'node_modules', 'onnxruntime-node'));
const {medianRunMs} = require('../ort_median.js');
(async () => {
  const [path, shapesJson, dtype, threads, repeats] = process.argv.slice(2);
  const s = await ort.InferenceSession.create(path, {intraOpNumThreads: +threads, interOpNumThreads: 1});
  for (const dims of JSON.parse(shapesJson)) {
    const n = dims.reduce((a, b) => a * b, 1);
    const data = dtype === 'int64' ? BigInt64Array.from({length: n}, (_, i) => BigInt(i % 7))
                                   : new Float32Array(n).fill(0.5);
    const feeds = {[s.inputNames[0]]: new ort.Tensor(dtype, data, dims)};
    console.log((await medianRunMs(s, feeds, +repeats)).toFixed(4));
  }
})();
