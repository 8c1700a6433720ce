# tilegraph: the tile server (and the CLI) in a container. Node slim, CPU backend by default.
#   docker build -t tilegraph .
#   docker run --rm -p 8080:8080 tilegraph                      # the bundled examples as a gallery
#   docker run --rm -p 8080:8080 -v $PWD/styles:/styles tilegraph serve --style /styles/my.json
# GPU hosts (NVIDIA container toolkit): build with --build-arg VULKAN=1 and run with
#   docker run --gpus all -e NVIDIA_DRIVER_CAPABILITIES=graphics,compute,utility ... serve --backend gpu
# (docs/deploy.md).

FROM node:20-bookworm-slim AS build
# A C compiler for the Node host's addons (scripts/build-native.mjs): the PNG encoder's deflate
# (libdeflate, about half node:zlib's CPU) and the AVX-512 noise kernels; this stage only, the image
# keeps the built dist/native/*.node. Without it the build still succeeds, the server deflates with
# node:zlib and noise runs in WebAssembly (a line at start-up says so).
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Dependencies first (a layer that survives source edits); `prepare` builds once the sources are in.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# The examples' data packages (devDependencies, as only the examples and the tests read them) stay
# in the image, which serves the examples; the other devDependencies go.
RUN npm run build && mkdir -p /tmp/example-data/@mapbox \
    && mv node_modules/world-atlas node_modules/us-atlas /tmp/example-data/ \
    && mv node_modules/@mapbox/mvt-fixtures /tmp/example-data/@mapbox/ \
    && npm prune --omit=dev --no-audit --no-fund && cp -r /tmp/example-data/. node_modules/

FROM node:20-bookworm-slim
# VULKAN=1 adds the Vulkan loader for the GPU backend (Dawn); the driver comes from the host.
ARG VULKAN=0
RUN if [ "$VULKAN" = "1" ]; then apt-get update && apt-get install -y --no-install-recommends libvulkan1 && rm -rf /var/lib/apt/lists/*; fi
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    TILEGRAPH_BACKEND=cpu
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/schema ./schema
COPY --from=build /app/examples ./examples
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# --single-threaded-gc: V8 collects each thread's garbage on that thread. The server and `tiles` run
# a render worker on every core, so V8's helper threads for the collector find no idle core: they
# take time from the renders (docs/server.md, "The collector's helper threads"). bench/server.mjs
# starts its servers with these flags; `npm start` has the same.
ENTRYPOINT ["node", "--single-threaded-gc", "dist/hosts/cli/main.js"]
CMD ["serve", "--style", "examples"]
