// WebGPU flag values (the spec's constants). The core cannot rely on the GPUBufferUsage /
// GPUTextureUsage globals: Dawn's Node binding exposes them only through its own `globals`.

export const BufferUsage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
  QUERY_RESOLVE: 0x0200,
} as const;

export const TextureUsage = {
  COPY_SRC: 0x01,
  COPY_DST: 0x02,
  TEXTURE_BINDING: 0x04,
  STORAGE_BINDING: 0x08,
  RENDER_ATTACHMENT: 0x10,
} as const;

export const MapMode = { READ: 0x0001 } as const;

/** Workgroup edge of every 2D image pass (8 x 8 invocations). */
export const WG = 8;
