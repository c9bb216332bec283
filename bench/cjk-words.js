// How to cut Japanese text into words for search (core/search/words.ts):
// Intl.Segmenter's dictionary against overlapping pairs of characters, over
// fifteen short posts and thirty queries with the posts a reader would want.
// Each query ranks the posts that share a word with it (BM25-like); the
// figures are the precision and recall of what it finds and the mean
// reciprocal rank of the first wanted post, and the first-use CPU of the
// segmenter (ICU loads its dictionary).
//
//   node bench/cjk-words.js
const POSTS = {
  1: '短命なSSH証明書で踏み台サーバーを置き換える。鍵の配布とローテーションが不要になり、監査ログも残る。',
  2: 'B2B SaaSのメール到達率を改善する。DMARC、DKIM、SPFを正しく設定し、送信ドメインの評判を守る。迷惑メールフォルダに入る原因を調査した。',
  3: 'モノレポのビルドキャッシュを共有して、CIの実行時間を半分にした。リモートキャッシュと依存関係グラフの使い方。',
  4: 'デーモンの正常終了は契約である。systemdのシグナル処理と準備完了通知、再起動の扱いについて。',
  5: '金曜日のデプロイをやめた理由。カナリアリリースとロールバック手順、障害対応の手順書を整備した。',
  6: '会議の議事録を自動で作成する。録音から要点を抜き出し、決定事項と宿題を一覧にする。',
  7: 'フリーランスの請求書と消費税。インボイス制度への対応と、経費の記録方法をまとめた。',
  8: 'コードレビューのチェックリスト。プルリクエストを小さく保ち、レビュー担当者の負担を減らす。',
  9: '東京都内の顧客向けに、オンサイトでの技術支援を行っている。',
  10: 'セキュリティ監査の準備。権限の境界、シークレットのローテーション、設定の見直し。',
  11: '障害報告書の書き方。影響範囲、原因、再発防止策を記録し、議事録とは別に残す。',
  12: 'キャッシュの無効化は難しい。HTTPキャッシュとCDNの設定を見直して、表示速度を改善した。',
  13: '京都の大学と共同研究を始めた。機械学習の評価方法を一緒に検討している。',
  14: '本番環境へのデプロイ前に、ステージング環境で負荷試験を行う。',
  15: '大学で情報工学を学んだ後、十年間インフラの仕事をしてきた。',
};
const WANTED = {
  議事録: [6, 11],
  デプロイ: [5, 14],
  証明書: [1],
  到達率: [2],
  キャッシュ: [3, 12],
  京都: [13],
  請求書: [7],
  レビュー: [8],
  障害: [5, 11],
  正常終了: [4],
  消費税: [7],
  手順書: [5],
  ローテーション: [1, 10],
  録音: [6],
  メール: [2],
  東京: [9],
  記録: [7, 11],
  設定: [2, 10, 12],
  環境: [14],
  大学: [13, 15],
  負荷試験: [14],
  監査: [1, 10],
  改善: [2, 12],
  学習: [13],
  報告書: [11],
  評価: [13],
  'ビルド キャッシュ': [3],
  再発防止: [11],
  情報: [15],
  工学: [15],
};

// First, before anything else in this process has segmented text.
const cpu = process.cpuUsage();
const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });
const first = [...segmenter.segment('議事録をデプロイする前に確認します')].length;
const used = process.cpuUsage(cpu);

const bySegmenter = (text) => [...segmenter.segment(text.toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment);

/** As core/search/words.ts cuts them: each script's stretch into overlapping pairs, a lone character alone. */
function byPairs(text) {
  const script = (c) =>
    /\p{scx=Katakana}/u.test(c) ? 'kana' : /\p{scx=Hiragana}/u.test(c) ? 'hira' : /\p{scx=Han}/u.test(c) ? 'han' : 'other';
  const out = [];
  for (const run of text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
    let part = [];
    let kind = null;
    const flush = () => {
      if (part.length === 0) return;
      if (kind === 'other' || part.length === 1) out.push(part.join(''));
      else for (let i = 0; i + 1 < part.length; i++) out.push(part[i] + part[i + 1]);
      part = [];
    };
    for (const c of run) {
      if (script(c) !== kind) flush();
      kind = script(c);
      part.push(c);
    }
    flush();
  }
  return out;
}

function evaluate(name, words) {
  const index = Object.entries(POSTS).map(([id, text]) => [Number(id), words(text)]);
  const df = new Map();
  for (const [, list] of index) for (const w of new Set(list)) df.set(w, (df.get(w) ?? 0) + 1);
  const n = index.length;
  let precision = 0;
  let recall = 0;
  let rank = 0;
  for (const [query, wanted] of Object.entries(WANTED)) {
    const terms = [...new Set(words(query))];
    const found = index
      .map(([id, list]) => {
        const score = terms.reduce((sum, t) => {
          const tf = list.filter((w) => w === t).length;
          return tf ? sum + (Math.log(1 + (n - df.get(t) + 0.5) / (df.get(t) + 0.5)) * tf) / (tf + 1) : sum;
        }, 0);
        return [id, score];
      })
      .filter(([, score]) => score > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([id]) => id);
    const hits = found.filter((id) => wanted.includes(id)).length;
    precision += found.length ? hits / found.length : 0;
    recall += hits / wanted.length;
    const first = found.findIndex((id) => wanted.includes(id));
    rank += first === -1 ? 0 : 1 / (first + 1);
  }
  const q = Object.keys(WANTED).length;
  console.log(`${name}: precision ${(precision / q).toFixed(2)}, recall ${(recall / q).toFixed(2)}, MRR ${(rank / q).toFixed(2)}`);
}

console.log(`Intl.Segmenter, first use (${first} segments): ${((used.user + used.system) / 1000).toFixed(1)} ms CPU`);
evaluate('Intl.Segmenter', bySegmenter);
evaluate('pairs of characters', byPairs);
