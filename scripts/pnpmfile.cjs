// pnpm hooks. beforePacking: the packed client's package.json lists what its users install and
// nothing else: its build-time dependencies (the workspace's contract, compiled into the tarball,
// and the test's bundler) and its build scripts mean nothing outside this repository.
module.exports = {
  hooks: {
    beforePacking(manifest) {
      if (manifest.name !== '@invoice-api/client') return manifest;
      const { devDependencies, scripts, ...packed } = manifest;
      return packed;
    },
  },
};
