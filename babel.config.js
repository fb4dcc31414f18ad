// Jest runs the TypeScript sources through Babel, which strips the types; `tsc` checks them.
module.exports = {
  presets: [['@babel/preset-env', { targets: { node: 'current' } }], '@babel/preset-typescript'],
};
