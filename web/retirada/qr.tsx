/**
 * The QR codes of the pickup, loaded only when used (their code stays out of the first load; the
 * service worker keeps it for offline use):
 * - reading a receipt's QR: the camera, through the browser's BarcodeDetector when it has one and
 *   jsQR on the video frames otherwise, or a photo taken or chosen, decoded by jsQR;
 * - drawing the Pix of the amount due, as SVG.
 */
import jsQR from 'jsqr';
import { create } from 'qrcode';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';

/** The text of the first QR code in an image, or null. Large photos are scaled down first (jsQR is quick at ~1000 px). */
function lerDaImagem(fonte: CanvasImageSource, largura: number, altura: number): string | null {
  const escala = Math.min(1, 1280 / Math.max(largura, altura));
  const w = Math.max(1, Math.round(largura * escala));
  const h = Math.max(1, Math.round(altura * escala));
  const tela = document.createElement('canvas');
  tela.width = w;
  tela.height = h;
  const ctx = tela.getContext('2d', { willReadFrequently: true });
  if (ctx === null) return null;
  ctx.drawImage(fonte, 0, 0, w, h);
  const pixels = ctx.getImageData(0, 0, w, h);
  return jsQR(pixels.data, w, h, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}

export async function lerQrDaFoto(arquivo: Blob): Promise<string | null> {
  const imagem = await createImageBitmap(arquivo);
  try {
    return lerDaImagem(imagem, imagem.width, imagem.height);
  } finally {
    imagem.close();
  }
}

interface Detector {
  detect(fonte: HTMLVideoElement): Promise<ReadonlyArray<{ rawValue: string }>>;
}
type ConstrutorDeDetector = new (opcoes: { formats: string[] }) => Detector;

function detectorNativo(): Detector | null {
  const C = (globalThis as { BarcodeDetector?: ConstrutorDeDetector }).BarcodeDetector;
  if (C === undefined) return null;
  try {
    return new C({ formats: ['qr_code'] });
  } catch {
    return null;
  }
}

const temCamera = () => typeof navigator.mediaDevices?.getUserMedia === 'function';

/**
 * The reader: the camera's picture while it looks for a QR code, and a photo button (which also
 * works where the camera cannot be opened in the page). `aoLer` gets the text of the code read.
 */
export default function LeitorDeQr({
  aoLer,
  aoFechar,
}: {
  readonly aoLer: (texto: string) => void;
  readonly aoFechar: () => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [mensagem, setMensagem] = useState<string | null>(null);
  const [camera, setCamera] = useState<'abrindo' | 'aberta' | 'sem'>(temCamera() ? 'abrindo' : 'sem');
  const id = useId();

  useEffect(() => {
    if (!temCamera()) return;
    let vivo = true;
    let fluxo: MediaStream | null = null;
    let espera = 0;
    void (async () => {
      try {
        fluxo = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      } catch {
        if (vivo) {
          setCamera('sem');
          setMensagem('Não foi possível abrir a câmera. Use uma foto do QR.');
        }
        return;
      }
      const v = video.current;
      if (!vivo || v === null) {
        fluxo.getTracks().forEach((t) => t.stop());
        return;
      }
      v.srcObject = fluxo;
      await v.play().catch(() => undefined);
      setCamera('aberta');
      const nativo = detectorNativo();
      const procurar = async () => {
        if (!vivo) return;
        let texto: string | null = null;
        if (v.readyState >= 2) {
          try {
            texto =
              nativo === null
                ? lerDaImagem(v, v.videoWidth, v.videoHeight)
                : ((await nativo.detect(v))[0]?.rawValue ?? null);
          } catch {
            texto = null;
          }
        }
        if (texto !== null && vivo) aoLer(texto);
        else espera = window.setTimeout(() => void procurar(), 250);
      };
      void procurar();
    })();
    return () => {
      vivo = false;
      window.clearTimeout(espera);
      fluxo?.getTracks().forEach((t) => t.stop());
    };
  }, [aoLer]);

  const foto = async (e: ChangeEvent<HTMLInputElement>) => {
    const arquivo = e.target.files?.[0];
    e.target.value = '';
    if (arquivo === undefined) return;
    setMensagem('Lendo a foto…');
    try {
      const texto = await lerQrDaFoto(arquivo);
      if (texto === null) setMensagem('Não achei um QR nesta foto. Tente de novo, mais perto e com luz.');
      else aoLer(texto);
    } catch {
      setMensagem('Não foi possível abrir esta imagem.');
    }
  };

  return (
    <section className="leitor" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Ler o QR do recibo</h2>
      {camera === 'sem' ? null : (
        <video ref={video} className="camera" muted playsInline aria-label="Imagem da câmera procurando o QR" />
      )}
      {camera === 'abrindo' ? <p className="suave">Abrindo a câmera…</p> : null}
      {camera === 'aberta' ? <p className="suave">Aponte a câmera para o QR do recibo.</p> : null}
      <p className="acoes">
        <input
          id={`${id}-foto`}
          className="visualmente-oculto foto"
          type="file"
          accept="image/*"
          capture="environment"
          onChange={foto}
        />
        <label className="botao secundario arquivo" htmlFor={`${id}-foto`}>
          Usar uma foto do QR
        </label>
        <button type="button" className="botao secundario" onClick={aoFechar}>
          Fechar
        </button>
      </p>
      {mensagem === null ? null : (
        <p role="status" className="aviso">
          {mensagem}
        </p>
      )}
    </section>
  );
}

/** A QR code of `texto` as SVG, drawn on the device. */
export function DesenhoDoQr({ texto, rotulo }: { readonly texto: string; readonly rotulo: string }) {
  const { modules } = create(texto, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  let caminho = '';
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (modules.get(y, x)) caminho += `M${x} ${y}h1v1h-1z`;
  return (
    <svg className="qr" viewBox={`-4 -4 ${n + 8} ${n + 8}`} role="img" aria-label={rotulo} shapeRendering="crispEdges">
      <rect x={-4} y={-4} width={n + 8} height={n + 8} fill="#fff" />
      <path d={caminho} fill="#000" />
    </svg>
  );
}
