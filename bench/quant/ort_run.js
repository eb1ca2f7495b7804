// ONNX Runtime (npm onnxruntime-node) on one input: model.onnx input.json
// threads repeats -> {"ms": median ms of session.run after a warm-up,
// "output": the first output's values}. input.json: {"dims": [...],
// "data": [...]} (float32).
const fs = require('fs');
const ort = require('onnxruntime-node');
const {medianRunMs} = require('../ort_median.js');
(async () => {
  const [path, inputPath, threads, repeats] = process.argv.slice(2);
  const input = JSON.parse(fs.readFileSync(inputPath, 'utf8'));
  const s = await ort.InferenceSession.create(path, {intraOpNumThreads: +threads, interOpNumThreads: 1});
  const feeds = {[s.inputNames[0]]: new ort.Tensor('float32', Float32Array.from(input.data), input.dims)};
  const out = (await s.run(feeds))[s.outputNames[0]];
  const ms = await medianRunMs(s, feeds, +repeats);
  console.log(JSON.stringify({ms, output: Array.from(out.data)}));
})();
