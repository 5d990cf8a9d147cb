import { DEFAULT_CALIBRATION, type Calibration } from './embedder.js';
import { ALL_MINILM_L6_V2, MINILM_BGE_USE_MULTILINGUAL, MINILM_USE_MULTILINGUAL } from './local-models.js';
import { USE_LITE_DIMENSIONS, USE_LITE_MODEL_ID } from './use-lite.constants.js';

/** What every process knows of an offline model without loading it. */
export interface CatalogModel {
  id: string;
  dimensions: number;
  calibration: Calibration;
  /**
   * Its place in the order a deployment moves through (decision 0018): a model of higher rank
   * replaces one of lower rank, never the reverse. A later release appends; ranks never change.
   */
  rank: number;
}

const CATALOG: CatalogModel[] = [
  { id: USE_LITE_MODEL_ID, dimensions: USE_LITE_DIMENSIONS, calibration: DEFAULT_CALIBRATION, rank: 0 },
  {
    id: ALL_MINILM_L6_V2.id,
    dimensions: ALL_MINILM_L6_V2.dimensions,
    calibration: ALL_MINILM_L6_V2.calibration,
    rank: 1,
  },
  {
    id: MINILM_USE_MULTILINGUAL.id,
    dimensions: MINILM_USE_MULTILINGUAL.dimensions,
    calibration: MINILM_USE_MULTILINGUAL.calibration,
    rank: 2,
  },
  {
    id: MINILM_BGE_USE_MULTILINGUAL.id,
    dimensions: MINILM_BGE_USE_MULTILINGUAL.dimensions,
    calibration: MINILM_BGE_USE_MULTILINGUAL.calibration,
    rank: 3,
  },
];

/** Not an offline model of this catalog (a remote model): any offline model replaces it. */
export const NOT_OFFLINE = -1;

export function catalogModel(id: string): CatalogModel | undefined {
  return CATALOG.find((m) => m.id === id);
}

export const modelRank = (id: string): number => catalogModel(id)?.rank ?? NOT_OFFLINE;
