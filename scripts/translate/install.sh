#!/usr/bin/env bash
# Installs, from Debian's packages (once; a second run does nothing),
# Apertium with the language pairs that lead to English (Spanish directly;
# French, Portuguese, Italian and Catalan through Spanish) and FreeDict's
# German, Dutch, Danish and Swedish dictionaries to English. With them the
# agent reads questions in those languages in English (TRANSLATE=auto).
set -euo pipefail

packages=(apertium apertium-eng-spa apertium-fr-es apertium-es-pt apertium-spa-ita apertium-spa-cat cg3
  dict-freedict-deu-eng dict-freedict-nld-eng dict-freedict-dan-eng dict-freedict-swe-eng)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "translate/install.sh: installing ${missing[*]} from Debian's packages" >&2
sudo=; [[ $(id -u) -eq 0 ]] || sudo=sudo
$sudo apt-get update -qq >&2 || true
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
apertium -l >/dev/null
