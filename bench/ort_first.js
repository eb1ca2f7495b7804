// ONNX Runtime's time to a first result: model.onnx '[dims]' threads ->
// "<session create ms> <first run ms>" (measured inside the process).
const ort = require('onnxruntime-node');
(async () => {
  const [path, dimsJson, threads] = process.argv.slice(2);
  const a = process.hrtime.bigint();
  const s = await ort.InferenceSession.create(path, {intraOpNumThreads: +threads, interOpNumThreads: 1});
  const b = process.hrtime.bigint();
  const dims = JSON.parse(dimsJson), n = dims.reduce((x, y) => x * y, 1);
  await s.run({[s.inputNames[0]]: new ort.Tensor('float32', new Float32Array(n).fill(0.5), dims)});
  const c = process.hrtime.bigint();
  console.log((Number(b - a) / 1e6).toFixed(1), (Number(c - b) / 1e6).toFixed(1));
})();
