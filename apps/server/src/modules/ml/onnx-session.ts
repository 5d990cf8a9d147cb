import path from 'node:path';
import * as ort from 'onnxruntime-node';

/**
 * The int8 graph of a provisioned model folder as an onnxruntime session, read by onnxruntime from
 * the file (no copy of the weights in the JavaScript heap: decision 0023).
 */
export function openModelSession(folder: string, threads: number): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(path.join(folder, 'onnx/model_quantized.onnx'), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    // Without the CPU arena onnxruntime returns each batch's activations instead of keeping the
    // largest batch's high-water mark for the life of the process (bench/RESULTS.md: RSS).
    enableCpuMemArena: false,
  });
}
