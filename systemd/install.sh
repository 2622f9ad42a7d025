#!/usr/bin/env bash
# Install Table Companion as a kiosk service on Raspberry Pi OS (Bookworm). Idempotent:
# run it again after `git pull` to update. Needs root: `sudo systemd/install.sh`.
#
#   sudo systemd/install.sh                     install or update, enable and (re)start
#   sudo systemd/install.sh --uninstall         remove the service and the app, keep games
#   sudo systemd/install.sh --uninstall --purge also delete games, settings, config and user
#
# Options: --no-apt (skip OS packages), --no-start (enable only), --calibration FILE (copy a
# camera calibration into /etc/table-companion), --dry-run (print what would be done),
# --print-unit (print the unit file as it would be installed, and stop).
set -euo pipefail

APP=table-companion
UNIT=companion.service
SERVICE_USER=${COMPANION_USER:-companion}
PREFIX=${COMPANION_PREFIX:-/opt/table-companion}
CONF_DIR=/etc/$APP
STATE_DIR=/var/lib/$APP
UNIT_PATH=/etc/systemd/system/$UNIT
GROUPS_NEEDED=(gpio video render input dialout)
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

action=install purge=false apt=true start=true dry=false calibration=""
while [ $# -gt 0 ]; do
    case $1 in
        --uninstall) action=uninstall ;;
        --purge) purge=true ;;
        --no-apt) apt=false ;;
        --no-start) start=false ;;
        --dry-run) dry=true ;;
        --print-unit) action=print-unit ;;
        --calibration)
            [ $# -ge 2 ] || { echo "install.sh: --calibration needs a FILE" >&2; exit 2; }
            calibration=$2
            shift
            ;;
        -h | --help)
            sed -n '2,12s/^# \{0,1\}//p' "$0"
            exit 0
            ;;
        *)
            echo "install.sh: unknown option $1 (try --help)" >&2
            exit 2
            ;;
    esac
    shift
done

say() { printf '==> %s\n' "$*"; }

# Every change goes through run, so --dry-run shows exactly what would happen.
run() {
    if $dry; then
        printf '+'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

as_user() { run runuser -u "$SERVICE_USER" -- "$@"; }

have_systemd() { [ -d /run/systemd/system ]; }

# The unit names /opt/table-companion and user companion; follow the overrides.
render_unit() {
    sed -e "s#/opt/table-companion#$PREFIX#g" \
        -e "s#^User=companion\$#User=$SERVICE_USER#" \
        -e "s#^Group=companion\$#Group=$SERVICE_USER#" \
        "$SRC/systemd/$UNIT"
}

if [ "$action" = print-unit ]; then
    render_unit
    exit 0
fi
if ! $dry && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root: sudo $0 $*" >&2
    exit 1
fi
if [ -n "$calibration" ] && [ ! -f "$calibration" ]; then
    echo "install.sh: no such calibration file: $calibration" >&2
    exit 2
fi

uninstall() {
    say "stopping and removing $UNIT"
    if have_systemd; then
        run systemctl disable --now "$UNIT" || true
    fi
    run rm -f "$UNIT_PATH"
    if have_systemd; then
        run systemctl daemon-reload
        run systemctl reset-failed "$UNIT" 2>/dev/null || true
    fi
    say "removing $PREFIX"
    run rm -rf "$PREFIX"
    if $purge; then
        say "purging games, settings and config ($STATE_DIR, $CONF_DIR) and user $SERVICE_USER"
        run rm -rf "$STATE_DIR" "$CONF_DIR"
        if id -u "$SERVICE_USER" >/dev/null 2>&1; then
            run userdel "$SERVICE_USER"
        fi
    else
        say "kept the games and settings in $STATE_DIR, the config in $CONF_DIR and user" \
            "$SERVICE_USER (add --purge to delete them)"
    fi
    say "uninstalled"
}

install_packages() {
    # Kivy's wheel brings its own SDL2; its KMS/DRM backend loads libdrm, libgbm and EGL/GLES.
    local packages=(python3 python3-venv python3-pip libgl1 libegl1 libgles2 libgbm1 libdrm2
        libgl1-mesa-dri libmtdev1 libgomp1 libglib2.0-0)
    if grep -qs "Raspberry Pi" /proc/device-tree/model; then
        # From the OS, not pip: they are built against the Pi's camera stack and GPIO driver.
        packages+=(python3-picamera2 python3-lgpio)
    fi
    local missing=() p
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "OS packages already installed"
        return
    fi
    say "installing OS packages: ${missing[*]}"
    run apt-get update -qq
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}"
}

create_user() {
    local g
    for g in "${GROUPS_NEEDED[@]}"; do
        getent group "$g" >/dev/null || run groupadd --system "$g"
    done
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        say "user $SERVICE_USER exists"
    else
        say "creating system user $SERVICE_USER"
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Table Companion" "$SERVICE_USER"
    fi
    local joined
    joined=$(IFS=,; echo "${GROUPS_NEEDED[*]}")
    run usermod --append --groups "$joined" "$SERVICE_USER"
}

install_app() {
    local venv=$PREFIX/venv
    run install -d -m 0755 "$PREFIX" "$PREFIX/docs" "$PREFIX/lib"
    # Copied, not run from the checkout: a home directory is not readable by the service user.
    run install -m 0644 "$SRC/systemd/kivy_config.py" "$PREFIX/lib/kivy_config.py"
    if [ ! -x "$venv/bin/python" ]; then
        say "creating $venv (sees the OS's picamera2 and lgpio)"
        run python3 -m venv --system-site-packages "$venv"
    fi
    # The venv sees the OS's numpy, which picamera2 was built against: it stays the only one,
    # and pip chooses an OpenCV that accepts it (opencv-python-headless 4.12 on need numpy 2).
    local constraints=$PREFIX/lib/constraints.txt numpy
    numpy=$(python3 -c "import numpy; print(numpy.__version__)" 2>/dev/null || true)
    run sh -c 'printf "%s\n" "$1" >"$2"' pin "${numpy:+numpy==$numpy}" "$constraints"
    say "installing the app from $SRC"
    # First resolve and fetch what is missing, then always replace the app itself: the
    # version number does not change with every commit.
    run "$venv/bin/pip" install --quiet --disable-pip-version-check -c "$constraints" "$SRC"
    run "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
        --force-reinstall "$SRC"
    if [ -f "$SRC/docs/pi.md" ]; then
        run install -m 0644 "$SRC/docs/pi.md" "$PREFIX/docs/pi.md"
    fi
}

install_config() {
    run install -d -m 0755 "$CONF_DIR"
    run install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$STATE_DIR" "$STATE_DIR/kivy"
    # The pin map is edited on the box: never overwrite it, offer the new one beside it.
    local pins=$SRC/hardware/pins.toml
    if [ -f "$pins" ]; then
        if [ ! -f "$CONF_DIR/pins.toml" ]; then
            say "installing the pin map $CONF_DIR/pins.toml"
            run install -m 0644 "$pins" "$CONF_DIR/pins.toml"
        elif ! cmp -s "$pins" "$CONF_DIR/pins.toml"; then
            say "kept your $CONF_DIR/pins.toml; the shipped one is $CONF_DIR/pins.toml.dist"
            run install -m 0644 "$pins" "$CONF_DIR/pins.toml.dist"
        fi
    elif [ ! -f "$CONF_DIR/pins.toml" ]; then
        # The service names this file in $COMPANION_PINS, so it must exist.
        say "no hardware/pins.toml in $SRC: writing an empty $CONF_DIR/pins.toml"
        if $dry; then
            echo "+ write an empty pin map to $CONF_DIR/pins.toml"
        else
            printf '# Pin map overrides for this box; see hardware/pins.toml.\n' \
                >"$CONF_DIR/pins.toml"
        fi
    fi
    if [ -n "$calibration" ]; then
        if [ -f "$CONF_DIR/calibration.json" ]; then
            run cp -p "$CONF_DIR/calibration.json" "$CONF_DIR/calibration.json.bak"
        fi
        say "installing the camera calibration $CONF_DIR/calibration.json"
        run install -m 0644 "$calibration" "$CONF_DIR/calibration.json"
    fi
    say "writing Kivy's touch and display config in $STATE_DIR/kivy"
    as_user "$PREFIX/venv/bin/python" "$PREFIX/lib/kivy_config.py" "$STATE_DIR/kivy"
}

install_unit() {
    say "installing $UNIT_PATH"
    if $dry; then
        echo "+ render_unit > $UNIT_PATH"
    else
        render_unit >"$UNIT_PATH.tmp"
        chmod 0644 "$UNIT_PATH.tmp"
        mv "$UNIT_PATH.tmp" "$UNIT_PATH"
    fi
    if have_systemd; then
        run systemctl daemon-reload
        run systemctl enable "$UNIT"
    else
        say "systemd is not running here: enable it later with 'systemctl enable $UNIT'"
    fi
}

doctor() {
    say "companion doctor"
    local status=0
    as_user env COMPANION_DATA_DIR="$STATE_DIR" COMPANION_CONFIG_DIR="$CONF_DIR" \
        COMPANION_PINS="$CONF_DIR/pins.toml" \
        KIVY_HOME="$STATE_DIR/kivy" KIVY_NO_ARGS=1 \
        "$PREFIX/venv/bin/companion" doctor || status=$?
    if [ "$status" != 0 ]; then
        say "doctor found problems (above); the service is installed anyway"
    fi
}

if [ "$action" = uninstall ]; then
    uninstall
    exit 0
fi

if $apt; then install_packages; fi
create_user
install_app
install_config
install_unit
if $start && have_systemd; then
    say "starting $UNIT"
    run systemctl restart "$UNIT"
fi
doctor
cat <<EOF
==> done. Table Companion starts at boot on the screen.
    status:     systemctl status $UNIT    logs: journalctl -u $UNIT -f
    update:     git pull && sudo $SRC/systemd/install.sh
    undo:       sudo $SRC/systemd/install.sh --uninstall   (keeps games in $STATE_DIR)
    undo all:   sudo $SRC/systemd/install.sh --uninstall --purge
EOF
