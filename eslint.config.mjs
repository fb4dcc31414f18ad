import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/', '.test-build/', 'console/dist/', 'data/', 'coverage/', 'node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  { files: ['*.js'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
      // The build is CommonJS, whose wrapper declares these: a module that declares one again does not load.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'Program > VariableDeclaration > VariableDeclarator[id.name=/^(module|exports|require|__filename|__dirname)$/]',
          message: 'CommonJS declares this name in every built module: choose another',
        },
      ],
    },
  },
);
