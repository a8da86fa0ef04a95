#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Linux packages of the command line, each with its own trimmed Java runtime:
#   target/packages/proofmode_<version>_amd64.deb
#   target/packages/proofmode-<version>-linux-x64.tar.gz
# Steps: the shaded jar (Maven wrapper, tests skipped), minus the native libraries of other platforms
# (and, for the .deb, minus OpenCV: Debian's libopencv-java instead);
# jdeps for the Java modules it needs; jlink for a runtime of only those; jpackage for the launcher
# (app image); man pages (picocli's generator, then asciidoctor) and the bash/zsh completion; then
# dpkg-deb and tar. Needs a JDK 17 with jlink and jpackage, asciidoctor, dpkg-deb, fakeroot, zip, gzip, strip.
#
#   packaging/build.sh             # or: ./mvnw -B -Prelease -DskipTests package (runs this after the jar)
#   packaging/build.sh --no-maven  # use proofmode-cli/target/proofmode.jar as it is
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/target/packages"
work="$root/target/packaging"

log() { printf '[package] %s\n' "$*" >&2; }
die() { printf '[package] ERROR: %s\n' "$*" >&2; exit 1; }

build_jar=1
[[ ${1:-} == --no-maven ]] && build_jar=0

for tool in jdeps jlink jpackage asciidoctor dpkg-deb fakeroot zip gzip tar strip; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found (apt-get install openjdk-17-jdk asciidoctor dpkg-dev fakeroot zip)"
done
[[ $(uname -m) == x86_64 ]] || die "this script packages for Linux x86_64; on $(uname -sm) see packaging/README.md"

# The version: the project's, from the root pom. A SNAPSHOT becomes a Debian pre-release: 0.1.0~snapshot.
version=$(sed -n '0,/<artifactId>proofmode-parent<\/artifactId>/d; s:.*<version>\(.*\)</version>.*:\1:p' "$root/pom.xml" | head -n 1)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[A-Za-z0-9.]+)?$ ]] || die "unexpected project version '$version' in pom.xml"
deb_version=$(printf '%s' "$version" | sed 's/-SNAPSHOT$/~snapshot/; s/-/~/' | tr '[:upper:]' '[:lower:]')
app_version=${version%%-*}   # jpackage wants numbers only

if (( build_jar )); then
    log "building the jar (./mvnw -DskipTests package -pl proofmode-cli -am)"
    (cd "$root" && ./mvnw -B -q -DskipTests -Dstyle.color=never package -pl proofmode-cli -am)
fi
jar="$root/proofmode-cli/target/proofmode.jar"
[[ -f $jar ]] || die "no $jar: build it first (or drop --no-maven)"

rm -rf "$work" && mkdir -p "$work/input" "$out"

# 1. The jar without other platforms' native libraries: OpenCV (org.openpnp:opencv) carries Linux, macOS
#    and Windows builds for several CPUs, sqlite-jdbc a dozen more. Only Linux x86_64's stay (a jar built
#    on Linux x86_64 has no others: proofmode-cli/pom.xml's natives-* profiles). zip -d exits 12 when
#    nothing matched, which is no failure here.
strip_jar() { # JAR PATTERN...
    local rc=0
    zip -q -d "$@" >/dev/null 2>&1 || rc=$?
    (( rc == 0 || rc == 12 )) || die "zip -d $1 failed (exit $rc)"
}
cp "$jar" "$work/input/proofmode.jar"
strip_jar "$work/input/proofmode.jar" \
    'nu/pattern/opencv/osx/*' 'nu/pattern/opencv/windows/*' 'nu/pattern/opencv/linux/ARM*' \
    'org/sqlite/native/Mac/*' 'org/sqlite/native/Windows/*' 'org/sqlite/native/FreeBSD/*' \
    'org/sqlite/native/Linux-*' 'org/sqlite/native/Linux/x86/*' 'org/sqlite/native/Linux/arm*' \
    'org/sqlite/native/Linux/aarch64/*' 'org/sqlite/native/Linux/ppc64/*' 'org/sqlite/native/Linux/riscv64/*'
listing=$(unzip -Z1 "$work/input/proofmode.jar")
grep -q '^nu/pattern/opencv/linux/x86_64/.' <<< "$listing" || die "OpenCV's Linux x86_64 library is missing from the jar"
grep -q '^org/sqlite/native/Linux/x86_64/.' <<< "$listing" || die "SQLite's Linux x86_64 library is missing from the jar"
# The archive keeps that jar (it runs on any Linux x86_64). The .deb's jar has no OpenCV at all (its 65 MB
# library and its Java classes): it names Debian's binding in its class path (libopencv-java, recommended
# below, whose JNI library imaging.OpenCvLibrary loads from /usr/lib/jni), so classes and library match.
cp "$work/input/proofmode.jar" "$work/proofmode-with-opencv.jar"
strip_jar "$work/input/proofmode.jar" 'nu/pattern/opencv/*' 'org/opencv/*'
printf 'Class-Path: /usr/share/java/opencv.jar\n' > "$work/class-path.mf"
jar --update --file "$work/input/proofmode.jar" --manifest "$work/class-path.mf"
unzip -Z1 "$work/input/proofmode.jar" | grep -q '^org/opencv/\|^nu/pattern/opencv/.' && die "OpenCV is still in the .deb's jar"
unzip -p "$work/input/proofmode.jar" META-INF/MANIFEST.MF | grep -q '^Class-Path: /usr/share/java/opencv.jar' \
    || die "the .deb's jar does not name Debian's OpenCV binding"
log "jar: $(du -m "$jar" | cut -f1) MB -> $(du -m "$work/proofmode-with-opencv.jar" | cut -f1) MB (this platform's native libraries only)," \
    "$(du -m "$work/input/proofmode.jar" | cut -f1) MB without OpenCV (the .deb's)"

# 2. The modules it needs (jdeps), plus those found only through services or by name at run time:
#    elliptic-curve TLS (jdk.crypto.ec), zip file systems (jdk.zipfs), more charsets (jdk.charsets),
#    DNS names for JNDI (jdk.naming.dns), PKCS#11 tokens (jdk.crypto.cryptoki: its provider and binding are
#    reached by name, see keys.TokenSlots).
modules=$(jdeps --multi-release 17 --ignore-missing-deps --print-module-deps "$work/input/proofmode.jar" 2>/dev/null | tail -n 1)
[[ -n $modules ]] || die "jdeps found no modules"
modules="$modules,jdk.crypto.ec,jdk.zipfs,jdk.charsets,jdk.naming.dns,jdk.crypto.cryptoki"
log "modules: $modules"

# 3. The runtime: only those modules, no debug symbols, headers or man pages, with a class-data archive
#    of the JDK's own classes. Its lib/modules is left uncompressed (--compress=0): jlink's compression
#    zips each class on its own (25.7 MB), which neither xz nor gzip shrinks further, while the 54.7 MB of
#    plain classes become 10.9 MB in the .deb's xz and 18.0 MB in the archive's gzip (bench/README.md,
#    speed round 3). Installed it is 29 MB more, and classes outside the archive are read without inflating.
jlink --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=0 \
    --generate-cds-archive --output "$work/runtime"
# Of the two class-data archives, the one for heaps of 32 GB and more (no compressed object pointers,
# 10 MB) goes: such a JVM starts without one. libjvm.so loses its static symbol table (4 MB; the exported
# symbols stay; crash reports name fewer JVM-internal frames, and the runtime has no jhsdb that reads it).
rm -f "$work/runtime/lib/server/classes_nocoops.jsa"
strip --strip-unneeded "$work/runtime/lib/server/libjvm.so"

# 4. The launcher and app image: bin/proofmode, lib/app/proofmode.jar, lib/runtime.
jpackage --type app-image --name proofmode --app-version "$app_version" \
    --vendor "ProofMode for the JVM" --description "Verifiable photography: prove media at capture, verify proofs" \
    --input "$work/input" --main-jar proofmode.jar --main-class org.proofmode.cli.Main \
    --runtime-image "$work/runtime" --java-options '-Xshare:auto' \
    --dest "$work/image"
app="$work/image/proofmode"
[[ -x $app/bin/proofmode ]] || die "jpackage made no launcher"
# jpackage's native launcher took 3 to 4 times as long to start as the same runtime's java command
# (bench/package-startup.sh, measured on a loaded machine), so bin/proofmode is a shell script that
# runs lib/runtime/bin/java on lib/app/proofmode.jar; it honours JAVA_OPTS as ./proofmode does.
rm -f "$app/bin/proofmode" "$app/lib/libapplauncher.so" "$app/lib/app/proofmode.cfg"
cat > "$app/bin/proofmode" <<'LAUNCHER'
#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs ProofMode on the Java runtime that comes with it (../lib/runtime), wherever this folder is.
# JAVA_OPTS is passed to the JVM (e.g. JAVA_OPTS=-Xmx64m); PROOFMODE_HOME is read by the program.
# `prove`, `verify`, `export` and `status` go to a running agent first (lib/app/agent.sh; README, "The agent").
set -u
self=$(readlink -f "$0")
# Two levels up by parameter expansion (self is absolute): no process to start before every command.
app=${self%/*}
app=${app%/*}
. "$app/lib/app/agent.sh"
proofmode_private_tmp
proofmode_agent "$app/lib/runtime/bin/java" "$app/lib/app/proofmode.jar" "$app/lib/app" "$@"
proofmode_quick_start "$app/lib/app" "$@"
# Class-data archives of this user's commands (the JDK's own one covers the JDK's classes only), made on
# first use as in a clone, in the user's cache: one folder per version of the package, owner-only.
PROOFMODE_CDS_OPTS=""
cds="${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/proofmode/cds/@VERSION@"
if [ "${PROOFMODE_CDS:-1}" != 0 ] && { [ -d "$cds" ] || (umask 077 && mkdir -p "$cds") 2>/dev/null; } \
    && [ -O "$cds" ] && [ -w "$cds" ]; then
  proofmode_cds "$app/lib/runtime/bin/java" "$app/lib/app/proofmode.jar" "$cds/proofmode" "$@"
fi
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options by convention
# -XX:-UsePerfData: no /tmp/hsperfdata_USER/PID file, which would show the command line outside the home.
exec "$app/lib/runtime/bin/java" -Xshare:auto -XX:-UsePerfData $PROOFMODE_CDS_OPTS $PROOFMODE_QUICK_OPTS $PROOFMODE_AGENT_OPTS $PROOFMODE_TMP_OPTS ${JAVA_OPTS:-} $PROOFMODE_CLIENT_OPTS -jar "$app/lib/app/proofmode.jar" "$@"
LAUNCHER
sed -i "s|@VERSION@|$app_version|" "$app/bin/proofmode"
install -m 0644 "$root/proofmode-cli/src/main/launcher/agent.sh" "$app/lib/app/agent.sh"
install -m 0755 "$root/proofmode-cli/src/main/launcher/agent-client.py" "$app/lib/app/agent-client.py"
install -m 0644 "$root/proofmode-cli/src/main/launcher/hashing.jit" "$app/lib/app/hashing.jit"
chmod 0755 "$app/bin/proofmode"

# 5. Man pages and completion, from the commands' own help.
codegen=$(find "${MAVEN_REPO:-$HOME/.m2/repository}/info/picocli/picocli-codegen" -name 'picocli-codegen-*.jar' | sort | tail -n 1)
[[ -n $codegen ]] || die "picocli-codegen not in the local Maven repository (run the build once with Maven)"
java -cp "$jar:$codegen" org.proofmode.cli.Docs "$work/docs" 2>/dev/null
mkdir -p "$work/man1"
# proofmode(1) also explains the three ways of sharing ('proofmode help sharing'), in a section of its own.
{
    printf '\n== Sharing\n\n....\n'
    sed -n '/^Proving a file/,$p' "$work/docs/sharing.txt"
    printf '....\n'
} >> "$work/docs/man/proofmode.adoc"
for adoc in "$work"/docs/man/*.adoc; do
    asciidoctor -b manpage -a reproducible -D "$work/man1" "$adoc"
done
gzip -9n "$work"/man1/*.1
ls "$work"/man1/proofmode.1.gz "$work"/man1/proofmode-sharing.1.gz >/dev/null
completion="$work/docs/completion/proofmode"

# Files every layout shares, placed under PREFIX (/usr for the .deb, the folder itself for the archive).
share_files() { # PREFIX LIBEXEC
    local p=$1 lx=$2
    install -d "$p/share/man/man1" "$p/share/bash-completion/completions" "$p/share/zsh/vendor-completions" \
        "$lx" "$p/share/doc/proofmode"
    install -m 0644 "$work"/man1/*.1.gz "$p/share/man/man1/"
    install -m 0644 "$completion" "$p/share/bash-completion/completions/proofmode"
    # zsh reads the bash script through bashcompinit.
    { printf '#compdef proofmode\n# SPDX-License-Identifier: Apache-2.0\nautoload -U +X bashcompinit && bashcompinit\n'; cat "$completion"; } \
        > "$p/share/zsh/vendor-completions/_proofmode"
    install -m 0755 "$root/packaging/linux/proofmode-share" "$lx/proofmode-share"
    install -m 0644 "$root/LICENSE" "$root/THIRD-PARTY.md" "$p/share/doc/proofmode/"
    install -m 0644 "$work/docs/sharing.txt" "$p/share/doc/proofmode/sharing.txt"
}

# 6. The Debian package.
deb_root="$work/deb"
install -d "$deb_root/opt" "$deb_root/usr/bin" "$deb_root/DEBIAN"
cp -a "$app" "$deb_root/opt/proofmode"
ln -s /opt/proofmode/bin/proofmode "$deb_root/usr/bin/proofmode"
share_files "$deb_root/usr" "$deb_root/usr/lib/proofmode"
install -d "$deb_root/usr/share/applications" "$deb_root/usr/share/kio/servicemenus" \
    "$deb_root/usr/lib/systemd/user" "$deb_root/usr/share/proofmode/nautilus-scripts"
install -m 0644 "$root/packaging/linux/proofmode.desktop" "$deb_root/usr/share/applications/org.proofmode.ProofMode.desktop"
install -m 0644 "$root/packaging/linux/proofmode-servicemenu.desktop" "$deb_root/usr/share/kio/servicemenus/org.proofmode.ProofMode.desktop"
install -m 0644 "$root/packaging/linux/proofmode-verify.desktop" "$deb_root/usr/share/applications/org.proofmode.ProofMode.Verify.desktop"
install -m 0644 "$root/packaging/linux/proofmode-verify-servicemenu.desktop" "$deb_root/usr/share/kio/servicemenus/org.proofmode.ProofMode.Verify.desktop"
install -m 0644 "$root/packaging/systemd/proofmode-watch.service" "$deb_root/usr/lib/systemd/user/proofmode-watch.service"
for s in "$root"/packaging/linux/nautilus/*; do
    install -m 0755 "$s" "$deb_root/usr/share/proofmode/nautilus-scripts/"
done
archive_files() { # DEST: the several-server example (systemd unit, nginx, backup and restore scripts)
    install -d "$1"
    install -m 0644 "$root"/packaging/archive/{README.md,proofmode-serve.service,serve.env.example,nginx-proofmode.conf} "$1/"
    install -m 0755 "$root"/packaging/archive/{backup.sh,restore.sh} "$1/"
}
archive_files "$deb_root/usr/share/proofmode/archive"
size_kb=$(du -sk "$deb_root" | cut -f1)
# libnotify's notify-send is recommended only while the file-manager actions use it for their notifications.
notify=
grep -q 'notify-send' "$root/packaging/linux/proofmode-share" && notify='libnotify-bin, '
cat > "$deb_root/DEBIAN/control" <<EOF
Package: proofmode
Version: $deb_version
Architecture: amd64
Maintainer: ProofMode for the JVM <proofmode@example.invalid>
Installed-Size: $size_kb
Depends: libc6, zlib1g
Recommends: ${notify}xdg-utils, ffmpeg, libopencv-java, opencv-data, libturbojpeg-java, libturbojpeg0-dev, python3, fonts-noto-core, fonts-droid-fallback, fonts-symbola
Suggests: gnupg, sqv, wl-clipboard | xclip | xsel
Section: utils
Priority: optional
Homepage: https://proofmode.org
Description: verifiable photography: prove media at capture, verify proofs
 Gives a photo, video or recording a proof close to capture: its SHA-256, a
 snapshot of the device, and OpenPGP signatures by a device key; verifies
 proofs and the ProofMode Android app's share bundles. Brings its own Java
 runtime. Keys and proofs stay in each user's ~/.proofmode, which removing
 the package never touches.
EOF
deb="$out/proofmode_${deb_version}_amd64.deb"
rm -f "$out"/proofmode_*_amd64.deb
fakeroot dpkg-deb -Zxz -z9 --build "$deb_root" "$deb" >/dev/null

# 7. The archive: runs from wherever it is unpacked (bin/proofmode finds lib/runtime beside it).
tar_root="$work/tar/proofmode-$version"
install -d "$tar_root"
cp -a "$app"/. "$tar_root/"
install -m 0644 "$work/proofmode-with-opencv.jar" "$tar_root/lib/app/proofmode.jar"   # face detection built in
share_files "$tar_root" "$tar_root/libexec"
install -m 0644 "$root/packaging/linux/proofmode.desktop" "$root/packaging/linux/proofmode-servicemenu.desktop" \
    "$root/packaging/linux/proofmode-verify.desktop" "$root/packaging/linux/proofmode-verify-servicemenu.desktop" \
    "$root/packaging/systemd/proofmode-watch.service" "$tar_root/share/doc/proofmode/"
archive_files "$tar_root/share/proofmode/archive"
tarball="$out/proofmode-$version-linux-x64.tar.gz"
rm -f "$out"/proofmode-*-linux-x64.tar.gz
tar -C "$work/tar" --owner=0 --group=0 --numeric-owner -czf "$tarball" "proofmode-$version"

log "$(du -h "$deb" | cut -f1)	$deb (installed: $((size_kb / 1024)) MB)"
log "$(du -h "$tarball" | cut -f1)	$tarball"
