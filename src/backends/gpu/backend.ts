/// <reference types="@webgpu/types" />
// The WebGPU backend. The host hands it a GPUDevice (Dawn in Node, navigator.gpu in a browser)
// and, optionally, a way to make a new one after a device loss. Each render gets its own
// GpuSession (begin); pipelines and pools live with the device and are shared by all renders.
import { RenderError } from '../../errors.js';
import type { Backend } from '../backend.js';
import { DeviceContext } from './context.js';
import { emptyTimings, GpuSession, type GpuTimings, type PipeliningStats } from './session.js';

export interface GpuBackendOptions {
  device: GPUDevice;
  /** Makes a replacement device after a loss (a host requests a new adapter). Without it a lost device fails renders. */
  recreate?: () => Promise<GPUDevice>;
  /** Bytes of textures and buffers kept pooled between renders (default 256 MiB). */
  poolBytes?: number;
  /**
   * Measure each render's GPU time with timestamp queries (GpuTimings.gpuMs; the device must have
   * been made with the 'timestamp-query' feature, else nothing is measured). Off by default: two
   * empty passes and a small readback per submit. The GPU bench turns it on.
   */
  timestamps?: boolean;
}

export class GpuBackend implements Backend {
  readonly name = 'gpu' as const;
  private current: DeviceContext;
  private replacing?: Promise<DeviceContext>;
  private readonly recreate?: () => Promise<GPUDevice>;
  private readonly poolBytes: number;
  private readonly timestamps: boolean;
  private closed = false;
  /** Devices made by this backend: 1 + recreations after a loss. */
  devicesCreated = 1;
  /** How this backend's renders overlapped (several tiles in flight on one device). */
  readonly pipelining: PipeliningStats = { readingBack: 0, overlapped: 0, maxReadingBack: 0 };
  /** Where this backend's renders spent their time (summed; see GpuTimings). */
  readonly timings: GpuTimings = emptyTimings();

  constructor(options: GpuBackendOptions) {
    this.poolBytes = options.poolBytes ?? 256 * 2 ** 20;
    this.timestamps = !!options.timestamps;
    this.current = new DeviceContext(options.device, this.poolBytes, this.timestamps);
    this.recreate = options.recreate;
  }

  /** The device renders currently start on. */
  get device(): GPUDevice {
    return this.current.device;
  }

  /** Bytes held in the texture and buffer pools between renders. */
  get pooledBytes(): number {
    return this.current.pooledBytes;
  }

  /** Whether renders can run: the backend is open and its device alive or replaceable. */
  isSupported(): boolean {
    return !this.closed && (!this.current.lost || !!this.recreate);
  }

  begin(): GpuSession {
    return new GpuSession(this);
  }

  /** A healthy device: the current one, or a replacement once it is lost. */
  async context(): Promise<DeviceContext> {
    if (this.closed) throw new RenderError('the GPU backend was closed');
    if (!this.current.lost) return this.current;
    if (!this.recreate) throw new RenderError(`the GPU device was lost (${this.current.lost.message}) and this host cannot make a new one`);
    if (!this.replacing) {
      this.replacing = this.recreate()
        .then((device) => {
          this.current = new DeviceContext(device, this.poolBytes, this.timestamps);
          this.devicesCreated++;
          return this.current;
        })
        .finally(() => {
          this.replacing = undefined;
        });
    }
    return this.replacing;
  }

  /** After a failed render: if the device was lost and can be replaced, replace it and ask for one retry. */
  async recover(_error: unknown): Promise<boolean> {
    if (this.closed || !this.current.lost || !this.recreate) return false;
    try {
      await this.context();
      return true;
    } catch {
      return false;
    }
  }

  /** Destroys the device and its pools; later renders fail. */
  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.current.destroy();
  }
}
