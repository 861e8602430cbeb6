// Starts GraphiQL from files served by this same origin. There is no inline script, so the page
// runs under the Mercados face's Content-Security-Policy (script-src 'self') unchanged.
(function () {
  var base = '/graphql-ide/';
  var workers = {
    editorWorkerService: base + 'editor.worker.js',
    json: base + 'json.worker.js',
    graphql: base + 'graphql.worker.js',
  };
  window.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_modulo, rotulo) {
      return workers[rotulo];
    },
  };
  var raiz = document.getElementById('root');
  var opcoes = JSON.parse(raiz.getAttribute('data-opcoes') || '{}');
  var script = document.createElement('script');
  script.src = base + 'graphiql.js';
  script.onload = function () {
    raiz.textContent = '';
    window.YogaGraphiQL.renderYogaGraphiQL(raiz, opcoes);
  };
  script.onerror = function () {
    raiz.textContent = 'Não foi possível carregar o GraphiQL. Recarregue a página.';
  };
  document.body.appendChild(script);
})();
